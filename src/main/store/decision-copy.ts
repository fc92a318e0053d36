/**
 * The store's check of a re-decide's copy request (`copyDecisions`, both backends): what the SQL
 * splices in (the round count) and binds must be sound before any row moves.
 */
import { StoreError, type DecisionCopy } from './contract'
import { checkId, checkInt } from './validate'

export function checkCopy(fitId: string, copy: DecisionCopy): void {
  checkId(copy.parentFitId, 'parentFitId')
  checkInt(copy.rounds, 'rounds', 1)
  checkInt(copy.limit, 'limit', 1)
  if (copy.afterTaskId !== null) checkId(copy.afterTaskId, 'afterTaskId')
  if (!(copy.reason === null || typeof copy.reason === 'string')) throw new StoreError('bad_input', 'copyDecisions: the reason must be a string or null', { fitId })
  if (typeof copy.threshold !== 'number' || !Number.isFinite(copy.threshold)) {
    throw new StoreError('bad_input', 'copyDecisions: the threshold 1 − α must be a finite number', { fitId })
  }
}
