/**
 * Everything the review screen reads about one task, in one snapshot: the transcript, the label
 * log, the decision under the current fit and the one before it, the reservation, the tallies.
 */
import type { Reservation } from '../../../shared/contract/task'
import { StoreError, type DecisionRecord, type TaskDetailRecord } from '../contract'
import { DECISION_COLUMNS, toDecision, type DecisionRow } from '../decision-row'
import { decisionsTable } from '../fit-decisions'
import { LIVE_LABEL } from '../label-rules'
import { rowOf, rowsOf, type Plan } from '../plan'
import { LABEL_COLUMNS, toLabel, type LabelRow } from '../rows'
import { TALLY_COLUMNS, toStoredTallies } from '../tally-rows'
import { checkId } from '../validate'
import type { Dialect } from './dialect'
import { readTaskTrace } from './tasks'

type FitTime = { id: string; decidedAt: string }

/** The newest decided fits, newest first (the current one, then the one before it). */
function* decidedFits(d: Dialect, n: number): Plan<FitTime[]> {
  return yield* rowsOf<FitTime>(
    `SELECT id, decided_at AS "decidedAt" FROM fits WHERE decided_at IS NOT NULL ORDER BY created_at DESC, ${d.seq} DESC LIMIT ?`,
    n
  )
}

function* decisionOf(fit: FitTime | undefined, taskId: string): Plan<DecisionRecord | null> {
  if (fit === undefined) return null
  const row = yield* rowOf<DecisionRow>(`SELECT ${DECISION_COLUMNS} FROM ${decisionsTable(fit.id)} d JOIN tasks t ON t.id = d.task_id WHERE d.task_id = ?`, taskId)
  return row === undefined ? null : toDecision(row, fit)
}

export function* taskDetail(d: Dialect, now: string, taskId: string): Plan<TaskDetailRecord> {
  checkId(taskId, 'taskId')
  const task = yield* readTaskTrace(taskId)
  if (task === null) throw new StoreError('not_found', `no task ${taskId}`, { taskId })
  const gold = (yield* rowOf<{ gold: string | null }>('SELECT gold FROM tasks WHERE id = ?', taskId))?.gold ?? null
  const labelLog = (yield* rowsOf<LabelRow>(`SELECT ${LABEL_COLUMNS} FROM labels WHERE task_id = ? ORDER BY ${d.seq}`, taskId)).map(toLabel)
  const liveLabels = (yield* rowsOf<LabelRow>(`SELECT ${LABEL_COLUMNS} FROM labels WHERE task_id = ? AND ${LIVE_LABEL('labels')} ORDER BY ${d.seq}`, taskId)).map(toLabel)
  const [current, previous] = yield* decidedFits(d, 2)
  const res = yield* rowOf<{ reviewer: string; session_id: string; expires_at: string }>(
    'SELECT reviewer, session_id, expires_at FROM reservations WHERE task_id = ? AND expires_at > ?',
    taskId, now
  )
  const reservation: Reservation | null = res === undefined ? null : { taskId, reviewer: res.reviewer, sessionId: res.session_id, expiresAt: res.expires_at }
  const tallyRow = yield* rowOf<Parameters<typeof toStoredTallies>[0]>(
    `SELECT ${TALLY_COLUMNS} FROM task_tallies tt JOIN tasks t ON t.id = tt.task_id WHERE tt.task_id = ?`,
    taskId
  )
  return {
    task,
    gold,
    liveLabels,
    labelLog,
    decision: yield* decisionOf(current, taskId),
    previousDecision: yield* decisionOf(previous, taskId),
    reservation,
    tallies: tallyRow === undefined ? null : toStoredTallies(tallyRow)
  }
}
