/**
 * The fit's stored counts minus its labeled tasks (../decided-counts.ts). The cost grows with the
 * labels, not the tasks, so the console's counts and queue total stay flat on a million-task
 * database. Null for a fit decided before the counts were stored: the caller counts the rows.
 */
import { LABELED_BY_DECISION, SELECT_STORED_COUNTS, subtractLabeled, type DecidedCounts, type StoredCounts } from '../decided-counts'
import type { Sql } from './connection'
import { decisionsTable } from '../fit-decisions'

export type { DecidedCounts } from '../decided-counts'

export function decidedCounts(q: Sql, fitId: string): DecidedCounts | null {
  const fit = q.get<StoredCounts>(SELECT_STORED_COUNTS, fitId)
  if (fit === undefined || fit.deferred === null || fit.spot === null) return null
  return subtractLabeled(fit, q.all<{ kind: string; n: number }>(LABELED_BY_DECISION(decisionsTable(fitId))))
}
