/** A queue / listing row (task, current decision, effective label, reservation) → TaskRow, shared by both backends. */
import { isSet, parseJson, parseStringArray, type SqlFlag } from './rows'
import type { TaskRow } from './types'

export type QueueRow = {
  task_id: string
  question: string | null
  grp: string | null
  candidates: string
  created_at: string
  version: number
  moves: number
  fit_id: string | null
  decision: 'act' | 'defer' | null
  spot_check: SqlFlag | null
  answer: string | null
  posterior: string | null
  stop_round: number | null
  gap: number | null
  bound: string | null
  disagreement: number | null
  decided_at: string | null
  l_id: string | null
  l_label: string | null
  l_source: 'random' | 'escalation' | null
  l_reviewer: string | null
  l_at: string | null
  r_reviewer: string | null
  r_session: string | null
  r_expires: string | null
}

export function toTaskRow(r: QueueRow, method: string | null): TaskRow {
  const label =
    r.l_id === null
      ? null
      : { taskId: r.task_id, labelId: r.l_id, label: r.l_label as string, source: r.l_source as 'random' | 'escalation', reviewer: r.l_reviewer as string, at: r.l_at as string }
  return {
    taskId: r.task_id,
    question: r.question,
    group: r.grp,
    candidates: parseStringArray(r.candidates),
    createdAt: r.created_at,
    version: r.version,
    moves: r.moves,
    state: label !== null ? 'human' : r.decision,
    decision: r.decision,
    spotCheck: isSet(r.spot_check),
    answer: label !== null ? label.label : r.answer,
    posterior: r.posterior === null ? null : (parseJson(r.posterior) as Record<string, number>),
    stopRound: r.stop_round,
    gap: r.gap,
    bound: r.bound === null ? null : (parseJson(r.bound) as (number | null)[]),
    disagreement: r.disagreement,
    fitId: r.fit_id,
    method: r.fit_id === null ? null : method,
    decidedAt: r.decided_at,
    label,
    reservedBy: r.r_reviewer === null ? null : { reviewer: r.r_reviewer, sessionId: r.r_session as string, expiresAt: r.r_expires as string }
  }
}
