/** A queue / listing row (task, current decision, effective label, reservation): the columns both backends select, and the mapping → TaskRow. */
import { HAS_LIVE_LABEL } from './label-rules'
import { readNumbers, readPosterior, type StoredNumbers } from './decision-numbers'
import { isSet, parseStringArray, type SqlFlag } from './rows'
import type { FilterMode } from './task-filter-check'
import type { TaskRow } from './contract'
import type { DecidedFit } from './fit-decisions'

const TASK_COLUMNS = `t.id AS task_id, t.question, t.grp, t.candidates, t.created_at, t.version,
  d.decision, d.spot_check, d.answer, d.posterior, d.stop_round, d.gap, d.bound, d.disagreement,
  t.move_count AS moves`
const RESERVATION_COLUMNS = 'r.reviewer AS r_reviewer, r.session_id AS r_session, r.expires_at AS r_expires'
// Flags are few (a reviewer's "can't decide"): a count per row of the page, on the flags_by_task index.
const FLAG_COLUMN = '(SELECT count(*) FROM flags fc WHERE fc.task_id = t.id) AS flag_count'

/**
 * The selected columns; a decided row has no live label by definition, so none is joined. `l_any`:
 * the task has a live label (it is `human` even while its reviewers disagree and `l` is empty).
 */
export function rowColumns(mode: FilterMode): string {
  const label =
    mode === 'decided'
      ? 'NULL AS l_id, NULL AS l_label, NULL AS l_source, NULL AS l_reviewer, NULL AS l_at, NULL AS l_any'
      : `l.id AS l_id, l.label AS l_label, l.source AS l_source, l.reviewer AS l_reviewer, l.at AS l_at, ${HAS_LIVE_LABEL('t.id')} AS l_any`
  return `${TASK_COLUMNS}, ${label}, ${RESERVATION_COLUMNS}, ${FLAG_COLUMN}`
}

export type QueueRow = {
  task_id: string
  question: string | null
  grp: string | null
  candidates: string
  created_at: string
  version: number
  moves: number
  decision: 'act' | 'defer' | null
  spot_check: SqlFlag | null
  answer: string | null
  posterior: StoredNumbers | null
  stop_round: number | null
  gap: number | null
  bound: StoredNumbers | null
  disagreement: number | null
  l_id: string | null
  l_label: string | null
  l_source: 'random' | 'escalation' | null
  l_reviewer: string | null
  l_at: string | null
  l_any: SqlFlag | null
  r_reviewer: string | null
  r_session: string | null
  r_expires: string | null
  /** A bigint count arrives as a string from PostgreSQL. */
  flag_count: number | string
}

/** `fit`: the current fit, whose table the row's decision came from (null: none yet). */
export function toTaskRow(r: QueueRow, fit: DecidedFit | null): TaskRow {
  const decided = r.decision !== null && fit !== null
  const candidates = parseStringArray(r.candidates)
  const label =
    r.l_id === null
      ? null
      : { taskId: r.task_id, labelId: r.l_id, label: r.l_label as string, source: r.l_source as 'random' | 'escalation', reviewer: r.l_reviewer as string, at: r.l_at as string }
  return {
    taskId: r.task_id,
    question: r.question,
    group: r.grp,
    candidates,
    createdAt: r.created_at,
    version: r.version,
    moves: r.moves,
    state: label !== null || isSet(r.l_any) ? 'human' : r.decision,
    decision: r.decision,
    spotCheck: isSet(r.spot_check),
    answer: label !== null ? label.label : r.answer,
    posterior: r.posterior === null ? null : readPosterior(r.posterior, candidates),
    stopRound: r.stop_round,
    gap: r.gap,
    bound: readNumbers(r.bound),
    disagreement: r.disagreement,
    fitId: decided ? fit.id : null,
    method: decided ? fit.method : null,
    decidedAt: decided ? fit.decidedAt : null,
    label,
    reservedBy: r.r_reviewer === null ? null : { reviewer: r.r_reviewer, sessionId: r.r_session as string, expiresAt: r.r_expires as string },
    flags: Number(r.flag_count)
  }
}
