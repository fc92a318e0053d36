/**
 * How many of a fit's tasks are still acted, deferred and spot-checked, without counting the
 * fit's decisions: the counts stored with them minus the labeled tasks among them (see
 * sqlite/decided-counts.ts). Null for a fit without stored counts: the caller counts the rows.
 */
import type { PgSql } from './connection'
import { LIVE_LABEL } from './tallies'

export type DecidedCounts = { acted: number; deferred: number; spotCheck: number }

export async function decidedCounts(q: PgSql, fitId: string): Promise<DecidedCounts | null> {
  const fit = await q.get<{ all: number; deferred: number | null; spot: number | null }>(
    'SELECT decision_count AS "all", deferred_count AS deferred, spot_count AS spot FROM fits WHERE id = ?',
    fitId
  )
  if (fit === undefined || fit.deferred === null || fit.spot === null) return null
  const out: DecidedCounts = { acted: fit.all - fit.deferred, deferred: fit.deferred, spotCheck: fit.spot }
  const labeled = await q.all<{ decision: 'act' | 'defer'; spot: boolean; n: number }>(
    `SELECT d.decision, d.spot_check AS spot, count(DISTINCT l.task_id) AS n
     FROM labels l JOIN decisions d ON d.fit_id = ? AND d.task_id = l.task_id
     WHERE ${LIVE_LABEL('l')} GROUP BY d.decision, d.spot_check`,
    fitId
  )
  for (const r of labeled) {
    if (r.decision === 'act') out.acted -= r.n
    else out.deferred -= r.n
    if (r.spot) out.spotCheck -= r.n
  }
  return out
}
