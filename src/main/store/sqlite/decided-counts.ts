/**
 * How many of a fit's tasks are still acted, deferred and spot-checked (a live label makes a task
 * `human` and takes it out of all three), without counting the fit's decisions: the counts stored
 * with them (migration 0003) minus the labeled tasks among them. The cost grows with the labels,
 * not the tasks, so the console's counts and queue total stay flat on a million-task database.
 * Null for a fit decided before the counts were stored: the caller counts the rows instead.
 */
import type { Sql } from './connection'
import { LIVE_LABEL } from './tallies'

/**
 * The fit's labeled tasks by decision. CROSS JOIN keeps the labels the outer loop (a lookup of each
 * in the fit's primary key): left to itself the planner walks the fit's million decisions looking
 * for the few labeled ones (100 ms at a million tasks, against 1 ms).
 */
export const LABELED_BY_DECISION = `SELECT d.decision, d.spot_check AS spot, count(DISTINCT l.task_id) AS n
  FROM labels l CROSS JOIN decisions d ON d.fit_id = ? AND d.task_id = l.task_id
  WHERE ${LIVE_LABEL('l')} GROUP BY d.decision, d.spot_check`

export type DecidedCounts = { acted: number; deferred: number; spotCheck: number }

export function decidedCounts(q: Sql, fitId: string): DecidedCounts | null {
  const fit = q.get<{ all: number; deferred: number | null; spot: number | null }>(
    'SELECT decision_count AS "all", deferred_count AS deferred, spot_count AS spot FROM fits WHERE id = ?',
    fitId
  )
  if (fit === undefined || fit.deferred === null || fit.spot === null) return null
  const out: DecidedCounts = { acted: fit.all - fit.deferred, deferred: fit.deferred, spotCheck: fit.spot }
  const labeled = q.all<{ decision: 'act' | 'defer'; spot: number; n: number }>(LABELED_BY_DECISION, fitId)
  for (const r of labeled) {
    if (r.decision === 'act') out.acted -= r.n
    else out.deferred -= r.n
    if (r.spot === 1) out.spotCheck -= r.n
  }
  return out
}
