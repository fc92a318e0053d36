/** Decision rows → DecisionRecord, shared by both backends. */
import { isSet, parseJson, parseNullableJsonObject, type SqlFlag } from './rows'
import type { DecisionRecord } from './types'

/** A row of a fit's decisions table (../fit-decisions.ts): the fit and its time are the table's. */
export type DecisionRow = {
  task_id: string
  decision: 'act' | 'defer'
  spot_check: SqlFlag
  answer: string | null
  posterior: string
  stop_round: number | null
  gap: number | null
  bound: string | null
  ks: string | null
  why: string | null
  reason: string | null
  disagreement: number | null
}

export const DECISION_COLUMNS =
  'task_id, decision, spot_check, answer, posterior, stop_round, gap, bound, ks, why, reason, disagreement'

export function toDecision(r: DecisionRow, fit: { id: string; decidedAt: string }): DecisionRecord {
  return {
    fitId: fit.id,
    taskId: r.task_id,
    decision: r.decision,
    spotCheck: isSet(r.spot_check),
    answer: r.answer,
    posterior: parseJson(r.posterior) as Record<string, number>,
    stopRound: r.stop_round,
    gap: r.gap,
    bound: r.bound === null ? null : (parseJson(r.bound) as (number | null)[]),
    k: r.ks === null ? null : (parseJson(r.ks) as (number | null)[]),
    why: parseNullableJsonObject(r.why),
    reason: r.reason,
    disagreement: r.disagreement,
    decidedAt: fit.decidedAt
  }
}
