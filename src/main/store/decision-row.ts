/** Decision rows → DecisionRecord, shared by both backends. */
import { isSet, parseJson, parseNullableJsonObject, type SqlFlag } from './rows'
import type { DecisionRecord } from './types'

export type DecisionRow = {
  fit_id: string
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
  decided_at: string
}

export const DECISION_COLUMNS =
  'fit_id, task_id, decision, spot_check, answer, posterior, stop_round, gap, bound, ks, why, reason, disagreement, decided_at'

export function toDecision(r: DecisionRow): DecisionRecord {
  return {
    fitId: r.fit_id,
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
    decidedAt: r.decided_at
  }
}
