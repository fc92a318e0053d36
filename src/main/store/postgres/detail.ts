/**
 * Everything the review screen reads about one task, in one snapshot: the transcript, the label
 * log, the decision under the current fit and the one before it, the reservation, the tallies.
 */
import { StoreError, type DecisionRecord, type Reservation, type TaskDetailRecord } from '../contract'
import { checkId } from '../validate'
import type { PgSql } from './connection'
import { LABEL_COLUMNS, toLabel, type LabelRow } from '../rows'
import { LIVE_LABEL } from './tallies'
import { TALLY_COLUMNS, toStoredTallies } from '../tally-rows'
import { toDecision, DECISION_COLUMNS, type DecisionRow } from '../decision-row'
import { decisionsTable } from '../fit-decisions'
import { readTaskTrace } from './traces'

/** The newest decided fits, newest first (the current one, then the one before it). */
async function decidedFits(q: PgSql, n: number): Promise<{ id: string; decidedAt: string }[]> {
  return q.all<{ id: string; decidedAt: string }>(
    'SELECT id, decided_at AS "decidedAt" FROM fits WHERE decided_at IS NOT NULL ORDER BY created_at DESC, seq DESC LIMIT ?',
    n
  )
}

export async function decisionOf(q: PgSql, fit: { id: string; decidedAt: string } | undefined, taskId: string): Promise<DecisionRecord | null> {
  if (fit === undefined) return null
  const row = await q.get<DecisionRow>(`SELECT ${DECISION_COLUMNS} FROM ${decisionsTable(fit.id)} d JOIN tasks t ON t.id = d.task_id WHERE d.task_id = ?`, taskId)
  return row === undefined ? null : toDecision(row, fit)
}

export async function taskDetail(q: PgSql, now: string, taskId: string): Promise<TaskDetailRecord> {
  checkId(taskId, 'taskId')
  const task = await readTaskTrace(q, taskId)
  if (task === null) throw new StoreError('not_found', `no task ${taskId}`, { taskId })
  const gold = (await q.get<{ gold: string | null }>('SELECT gold FROM tasks WHERE id = ?', taskId))?.gold ?? null
  const labelLog = (await q.all<LabelRow>(`SELECT ${LABEL_COLUMNS} FROM labels WHERE task_id = ? ORDER BY seq`, taskId)).map(toLabel)
  const liveLabels = (
    await q.all<LabelRow>(`SELECT ${LABEL_COLUMNS} FROM labels WHERE task_id = ? AND ${LIVE_LABEL('labels')} ORDER BY seq`, taskId)
  ).map(toLabel)
  const [current, previous] = await decidedFits(q, 2)
  const res = await q.get<{ reviewer: string; session_id: string; expires_at: string }>(
    'SELECT reviewer, session_id, expires_at FROM reservations WHERE task_id = ? AND expires_at > ?',
    taskId, now
  )
  const reservation: Reservation | null = res === undefined ? null : { taskId, reviewer: res.reviewer, sessionId: res.session_id, expiresAt: res.expires_at }
  const tallyRow = await q.get<Parameters<typeof toStoredTallies>[0]>(
    `SELECT ${TALLY_COLUMNS} FROM task_tallies tt JOIN tasks t ON t.id = tt.task_id WHERE tt.task_id = ?`,
    taskId
  )
  return {
    task,
    gold,
    liveLabels,
    labelLog,
    decision: await decisionOf(q, current, taskId),
    previousDecision: await decisionOf(q, previous, taskId),
    reservation,
    tallies: tallyRow === undefined ? null : toStoredTallies(tallyRow)
  }
}
