import type { ReadPlan } from '../read-plan'
import type { Sql } from './connection'

/** Drives a shared read plan (../read-plan.ts) inside the caller's transaction. */
export function runPlan<T>(q: Sql, plan: ReadPlan<T>): T {
  let step = plan.next([])
  while (step.done !== true) step = plan.next(q.all(step.value.sql, ...step.value.params))
  return step.value
}
