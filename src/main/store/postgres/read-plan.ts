import type { ReadPlan } from '../read-plan'
import type { PgSql } from './connection'

/** Drives a shared read plan (../read-plan.ts) inside the caller's transaction, one statement at a time. */
export async function runPlan<T>(q: PgSql, plan: ReadPlan<T>): Promise<T> {
  let step = plan.next([])
  while (step.done !== true) step = plan.next(await q.all(step.value.sql, ...step.value.params))
  return step.value
}
