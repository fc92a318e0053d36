/**
 * Fit history for the console: the list, one fit, the current one, and rollback (a new fit that
 * copies the chosen one's content and decisions; see sqlite/fit-history.ts).
 */
import { decisionsTable } from '../fit-decisions'
import { DECISION_INDEXES, DECISIONS_TABLE } from './migrations/0002-decisions-per-fit'
import { randomUUID } from 'node:crypto'
import { StoreError, type Actor, type FitRecord, type FitSummary } from '../contract'
import { checkId, checkInt } from '../validate'
import { appendAudit } from './audit'
import type { PgSql } from './connection'
import { getFit, latestDecidedFitId } from './fits'
import { FIT_COLUMNS, toFit, type FitRow } from '../rows'

export async function requireFit(q: PgSql, fitId: string): Promise<FitRecord> {
  checkId(fitId, 'fitId')
  const fit = await getFit(q, fitId)
  if (fit === null) throw new StoreError('not_found', `no fit ${fitId}`, { fitId })
  return fit
}

export async function listFits(q: PgSql, limit: number): Promise<FitSummary[]> {
  checkInt(limit, 'limit', 1)
  const current = await latestDecidedFitId(q)
  const rows = await q.all<FitRow>(`SELECT ${FIT_COLUMNS} FROM fits ORDER BY created_at DESC, seq DESC LIMIT ?`, Math.min(limit, 1000))
  return rows.map((r) => {
    const { certificate: _certificate, ...rest } = toFit(r)
    return { ...rest, current: rest.id === current }
  })
}

export async function currentFit(q: PgSql): Promise<FitRecord | null> {
  const id = await latestDecidedFitId(q)
  return id === null ? null : getFit(q, id)
}

export async function rollbackFit(q: PgSql, now: string, fitId: string, actor: Actor): Promise<FitRecord> {
  const old = await requireFit(q, fitId)
  if (old.decidedAt === null) {
    throw new StoreError('conflict', `fit ${fitId} has no decisions, so it cannot be made current`, { fitId })
  }
  const current = await latestDecidedFitId(q)
  if (current === fitId) throw new StoreError('conflict', `fit ${fitId} is already the current fit`, { fitId })
  const id = randomUUID()
  const metrics = { ...(old.metrics ?? {}), rollbackOf: fitId }
  await q.run(
    `INSERT INTO fits (id, created_at, method, hyperparameters, reliabilities, certificate, metrics, parent_fit_id, bound)
     SELECT ?::text, ?::text, method, hyperparameters, reliabilities, certificate, ?::json, id, bound FROM fits WHERE id = ?`,
    id, now, JSON.stringify(metrics), fitId
  )
  // The copy is a new fit's table, filled in key order and then indexed, like a decide's.
  const table = decisionsTable(id)
  await q.exec(DECISIONS_TABLE(table))
  const copied = await q.run(`INSERT INTO ${table} SELECT * FROM ${decisionsTable(fitId)} ORDER BY task_id`)
  await q.exec(DECISION_INDEXES(table))
  await q.exec(`ANALYZE ${table}`)
  const stored = await q.get<{ deferred: number | null; spot: number | null }>('SELECT deferred_count AS deferred, spot_count AS spot FROM fits WHERE id = ?', fitId)
  await q.run('UPDATE fits SET decided_at = ?, decision_count = ?, deferred_count = ?, spot_count = ? WHERE id = ?', now, copied, stored?.deferred ?? null, stored?.spot ?? null, id)
  await appendAudit(q, now, actor, 'fit.rollback', id, { rollbackOf: fitId, replaced: current, decisions: copied })
  return requireFit(q, id)
}
