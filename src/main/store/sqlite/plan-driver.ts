import type { Plan, Statement } from '../plan'
import type { Sql } from './connection'

function step(q: Sql, s: Statement): unknown {
  if (s.kind === 'rows' || s.kind === 'bulk') return q.all(s.sql, ...s.params)
  if (s.kind === 'run') return q.run(s.sql, ...s.params)
  q.db.exec(s.sql)
  return undefined
}

/** Runs a plan (../plan.ts) synchronously inside the caller's transaction. */
export function runPlan<T>(q: Sql, plan: Plan<T>): T {
  let next = plan.next()
  while (next.done !== true) next = plan.next(step(q, next.value))
  return next.value
}
