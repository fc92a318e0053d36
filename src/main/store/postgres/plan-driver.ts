import type { Plan, Statement } from '../plan'
import type { PgSql } from './connection'
import { bulkRows } from './copy'

async function step(q: PgSql, s: Statement): Promise<unknown> {
  if (s.kind === 'rows') return q.all(s.sql, ...s.params)
  if (s.kind === 'run') return q.run(s.sql, ...s.params)
  if (s.kind === 'bulk') return bulkRows(q, s.sql, s.params, s.columns)
  await q.exec(s.sql)
  return undefined
}

/** Runs a plan (../plan.ts) inside the caller's transaction, awaiting one statement at a time. */
export async function runPlan<T>(q: PgSql, plan: Plan<T>): Promise<T> {
  let next = plan.next()
  while (next.done !== true) next = plan.next(await step(q, next.value))
  return next.value
}
