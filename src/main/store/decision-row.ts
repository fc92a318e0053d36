/** Decision rows → DecisionRecord, shared by both backends. */
import { readNumbers, readPosterior, readWhy, type StoredNumbers } from './decision-numbers'
import { isSet, parseStringArray, type SqlFlag } from './rows'
import type { DecisionRecord } from './contract'

/** A row of a fit's decisions table (../fit-decisions.ts): the fit and its time are the table's. */
export type DecisionRow = {
  task_id: string
  decision: 'act' | 'defer'
  spot_check: SqlFlag
  answer: string | null
  posterior: StoredNumbers
  stop_round: number | null
  gap: number | null
  bound: StoredNumbers | null
  ks: StoredNumbers | null
  why: StoredNumbers | null
  reason: string | null
  disagreement: number | null
  /** The task's candidates (JSON): the key list of a posterior stored as a BLOB. */
  candidates: string
}

/** Selected from a decisions table `d` joined to its task `t`. */
export const DECISION_COLUMNS =
  'd.task_id, d.decision, d.spot_check, d.answer, d.posterior, d.stop_round, d.gap, d.bound, d.ks, d.why, d.reason, d.disagreement, t.candidates'

export function toDecision(r: DecisionRow, fit: { id: string; decidedAt: string }): DecisionRecord {
  return {
    fitId: fit.id,
    taskId: r.task_id,
    decision: r.decision,
    spotCheck: isSet(r.spot_check),
    answer: r.answer,
    posterior: readPosterior(r.posterior, parseStringArray(r.candidates)),
    stopRound: r.stop_round,
    gap: r.gap,
    bound: readNumbers(r.bound),
    k: readNumbers(r.ks),
    why: readWhy(r.why),
    reason: r.reason,
    disagreement: r.disagreement,
    decidedAt: fit.decidedAt
  }
}
