/**
 * Fit history for the console: the list, one fit, the current one, and rollback. Fits and
 * decisions are immutable, so a rollback does not move a pointer: it appends a new fit that copies
 * the chosen one's content and decisions (parent = the chosen fit), which then is the newest
 * decided fit — the one every count and queue reads. The history stays linear and audited.
 */
import { randomUUID } from 'node:crypto'
import { StoreError, type Actor, type FitRecord, type FitSummary } from '../contract'
import { checkId, checkInt } from '../validate'
import { appendAudit } from './audit'
import type { Sql } from './connection'
import { getFit, indexDecisions, latestDecidedFitId } from './fits'
import { FIT_COLUMNS, toFit, type FitRow } from '../rows'
import { decisionsTable } from '../fit-decisions'
import { DECISIONS_TABLE } from './migrations/0004-decisions-per-fit'

export function requireFit(q: Sql, fitId: string): FitRecord {
  checkId(fitId, 'fitId')
  const fit = getFit(q, fitId)
  if (fit === null) throw new StoreError('not_found', `no fit ${fitId}`, { fitId })
  return fit
}

export function listFits(q: Sql, limit: number): FitSummary[] {
  checkInt(limit, 'limit', 1)
  const current = latestDecidedFitId(q)
  return q
    .all<FitRow>(`SELECT ${FIT_COLUMNS} FROM fits ORDER BY created_at DESC, rowid DESC LIMIT ?`, Math.min(limit, 1000))
    .map((r) => {
      const { certificate: _certificate, ...rest } = toFit(r)
      return { ...rest, current: rest.id === current }
    })
}

export function currentFit(q: Sql): FitRecord | null {
  const id = latestDecidedFitId(q)
  return id === null ? null : getFit(q, id)
}

export function rollbackFit(q: Sql, now: string, fitId: string, actor: Actor): FitRecord {
  const old = requireFit(q, fitId)
  if (old.decidedAt === null) {
    throw new StoreError('conflict', `fit ${fitId} has no decisions, so it cannot be made current`, { fitId })
  }
  const current = latestDecidedFitId(q)
  if (current === fitId) throw new StoreError('conflict', `fit ${fitId} is already the current fit`, { fitId })
  const id = randomUUID()
  const metrics = { ...(old.metrics ?? {}), rollbackOf: fitId }
  q.run(
    `INSERT INTO fits (id, created_at, method, hyperparameters, reliabilities, certificate, metrics, parent_fit_id, bound)
     SELECT ?, ?, method, hyperparameters, reliabilities, certificate, ?, id, bound FROM fits WHERE id = ?`,
    id, now, JSON.stringify(metrics), fitId
  )
  // The copy is a new fit's table, filled in key order and then indexed, like a decide's.
  const table = decisionsTable(id)
  q.db.exec(DECISIONS_TABLE(table))
  const copied = q.run(`INSERT INTO ${table} SELECT * FROM ${decisionsTable(fitId)} ORDER BY task_id`)
  indexDecisions(q, table)
  const stored = q.get<{ deferred: number | null; spot: number | null }>('SELECT deferred_count AS deferred, spot_count AS spot FROM fits WHERE id = ?', fitId)
  q.run('UPDATE fits SET decided_at = ?, decision_count = ?, deferred_count = ?, spot_count = ? WHERE id = ?', now, copied, stored?.deferred ?? null, stored?.spot ?? null, id)
  appendAudit(q, now, actor, 'fit.rollback', id, { rollbackOf: fitId, replaced: current, decisions: copied })
  return requireFit(q, id)
}
