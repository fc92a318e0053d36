/**
 * The store's check of a re-decide's copy request (`redecideRows`, both backends): what the SQL
 * splices in (the round count) and binds must be sound before any row moves.
 */
import { StoreError, type RedecideRowsInput } from './contract'
import { checkId, checkInt } from './validate'

export function checkRedecideRows(fitId: string, copy: RedecideRowsInput): void {
  checkId(copy.parentFitId, 'parentFitId')
  checkInt(copy.rounds, 'rounds', 1)
  checkInt(copy.limit, 'limit', 1)
  if (copy.afterTaskId !== null) checkId(copy.afterTaskId, 'afterTaskId')
  if (!(copy.reason === null || typeof copy.reason === 'string')) throw new StoreError('bad_input', 'redecideRows: the reason must be a string or null', { fitId })
  if (typeof copy.threshold !== 'number' || !Number.isFinite(copy.threshold)) {
    throw new StoreError('bad_input', 'redecideRows: the threshold 1 − α must be a finite number', { fitId })
  }
}
