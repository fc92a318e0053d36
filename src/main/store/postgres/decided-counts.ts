/**
 * The fit's stored counts minus its labeled tasks (../decided-counts.ts: one primary-key probe of
 * the fit's decisions per labeled task, never a join over all of them). Null for a fit without
 * stored counts: the caller counts the rows.
 */
import { decisionsTable } from '../fit-decisions'
import { LABELED_BY_DECISION, SELECT_STORED_COUNTS, subtractLabeled, type DecidedCounts, type StoredCounts } from '../decided-counts'
import type { PgSql } from './connection'

export type { DecidedCounts } from '../decided-counts'

export async function decidedCounts(q: PgSql, fitId: string): Promise<DecidedCounts | null> {
  const fit = await q.get<StoredCounts>(SELECT_STORED_COUNTS, fitId)
  if (fit === undefined || fit.deferred === null || fit.spot === null) return null
  return subtractLabeled(fit, await q.all<{ kind: string; n: number }>(LABELED_BY_DECISION(decisionsTable(fitId))))
}
