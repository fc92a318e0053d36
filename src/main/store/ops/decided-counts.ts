/**
 * How many of a fit's tasks are still acted, deferred and spot-checked (a live label makes a task
 * `human` and takes it out of all three), without counting the fit's decisions: the counts stored
 * with them minus the labeled tasks among them. The cost grows with the labels, not the tasks, so
 * the console's counts and queue total stay flat on a million-task database.
 */
import { decisionsTable } from '../fit-decisions'
import { LIVE_LABEL } from '../label-rules'
import { rowOf, rowsOf, type Plan } from '../plan'

/**
 * The fit's labeled tasks by decision kind (`act`, `defer`, each with `+spot` when spot-checked),
 * from the fit's decisions `table` (../fit-decisions.ts). No parameters.
 *
 * The labeled tasks drive it, each followed by one probe of the fit's decisions by their primary
 * key (task_id), so the cost grows with the live labels and never with the fit's
 * decisions. The probe is a correlated scalar subquery on purpose: neither planner turns one
 * into a join, so it cannot choose what PostgreSQL chose for a plain join at 100,000 tasks — a
 * hash join over all 99,000 decision rows (95 ms a call under load, the queue page's whole
 * budget). A task has at most one decision per fit, so the subquery yields one value or NULL.
 * MATERIALIZED (both dialects): SQLite would otherwise copy the probe into the outer WHERE and
 * GROUP BY and run it twice per task.
 */
export const LABELED_BY_DECISION = (table: string): string => `WITH k AS MATERIALIZED (
    SELECT (SELECT d.decision || CASE WHEN d.spot_check THEN '+spot' ELSE '' END
            FROM ${table} d WHERE d.task_id = lt.task_id) AS kind
    FROM (SELECT DISTINCT l.task_id FROM labels l WHERE ${LIVE_LABEL('l')}) lt
  )
  SELECT kind, count(*) AS n FROM k WHERE kind IS NOT NULL GROUP BY kind`

export type DecidedCounts = { acted: number; deferred: number; spotCheck: number }

export type StoredCounts = { all: number; deferred: number | null; spot: number | null }

/** The fit's stored counts, or null for a fit decided before they were stored (count the rows). */
export const SELECT_STORED_COUNTS =
  'SELECT decision_count AS "all", deferred_count AS deferred, spot_count AS spot FROM fits WHERE id = ?'

/** The stored counts minus the labeled tasks (rows of LABELED_BY_DECISION). */
export function subtractLabeled(fit: StoredCounts | undefined, labeled: readonly { kind: string; n: number }[]): DecidedCounts | null {
  if (fit === undefined || fit.deferred === null || fit.spot === null) return null
  const out: DecidedCounts = { acted: fit.all - fit.deferred, deferred: fit.deferred, spotCheck: fit.spot }
  for (const r of labeled) {
    if (r.kind.startsWith('act')) out.acted -= r.n
    else out.deferred -= r.n
    if (r.kind.endsWith('+spot')) out.spotCheck -= r.n
  }
  return out
}

/** Null for a fit decided before the counts were stored: the caller counts the rows. */
export function* decidedCounts(fitId: string): Plan<DecidedCounts | null> {
  const fit = yield* rowOf<StoredCounts>(SELECT_STORED_COUNTS, fitId)
  if (fit === undefined || fit.deferred === null || fit.spot === null) return null
  return subtractLabeled(fit, yield* rowsOf<{ kind: string; n: number }>(LABELED_BY_DECISION(decisionsTable(fitId))))
}
