/**
 * Flags: a reviewer who cannot decide a task says why. Append-only, like labels
 * (migration: flags are never updated or deleted), and not a label: the task keeps its state and
 * stays in every queue, marked. Flagging hands the task back — the caller's own hold on it ends in
 * the same transaction, so the next reviewer can take it.
 */
import { randomUUID } from 'node:crypto'
import { FLAG_REASON_MAX } from '../../../shared/limits'
import { StoreError, type Actor, type FlagInput, type FlagRecord, type SealedViewer, type TaskFilter } from '../contract'
import { rowsOf, run, type Plan } from '../plan'
import { checkString } from '../validate'
import { appendAudit } from './audit'
import type { Dialect } from './dialect'
import { requireTask } from './labels'
import { filteredTasks } from './queue'


type FlagRow = { id: string; task_id: string; reviewer: string; reason: string; at: string; session_id: string }
const FLAG_COLUMNS = 'id, task_id, reviewer, reason, at, session_id'

const toFlag = (r: FlagRow): FlagRecord => ({ id: r.id, taskId: r.task_id, reviewer: r.reviewer, reason: r.reason, at: r.at, sessionId: r.session_id })

function checkReason(value: unknown): string {
  const reason = checkString(value, 'reason').trim()
  if (reason === '') throw new StoreError('bad_input', 'reason: say why the task cannot be decided (it is empty)', { field: 'reason' })
  if (reason.length > FLAG_REASON_MAX) {
    throw new StoreError('bad_input', `reason: at most ${FLAG_REASON_MAX} characters (got ${reason.length})`, { field: 'reason' })
  }
  return reason
}

export function* flagTask(d: Dialect, now: string, input: FlagInput, actor: Actor): Plan<FlagRecord> {
  const task = yield* requireTask(d, input.taskId, true)
  const reason = checkReason(input.reason)
  const flag: FlagRecord = { id: randomUUID(), taskId: task.id, reviewer: actor.reviewer, reason, at: now, sessionId: actor.sessionId }
  yield* run(`INSERT INTO flags (${FLAG_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)`, flag.id, flag.taskId, flag.reviewer, flag.reason, flag.at, flag.sessionId)
  const released = (yield* run('DELETE FROM reservations WHERE task_id = ? AND session_id = ?', task.id, actor.sessionId)) > 0
  yield* appendAudit(now, actor, 'task.flag', task.id, { flagId: flag.id, reason, released })
  return flag
}

export function* taskFlags(d: Dialect, taskId: string): Plan<FlagRecord[]> {
  yield* requireTask(d, taskId)
  const rows = yield* rowsOf<FlagRow>(`SELECT ${FLAG_COLUMNS} FROM flags WHERE task_id = ? ORDER BY ${d.seq}`, taskId)
  return rows.map(toFlag)
}

/** `viewer`, `drawnFor`: the caller, so a filter matches what their queue matches (filteredTasks). */
export function* filteredFlags(d: Dialect, now: string, filter: TaskFilter, afterTaskId: string | null, limit: number, viewer: SealedViewer | null = null, drawnFor: string | null = null): Plan<{ rows: FlagRecord[]; lastTaskId: string | null }> {
  const tasks = yield* filteredTasks(d, now, filter, afterTaskId, limit, viewer, drawnFor)
  const flagged = tasks.filter((t) => t.flags > 0).map((t) => t.taskId)
  const rows = flagged.length === 0
    ? []
    : (yield* rowsOf<FlagRow>(`SELECT ${FLAG_COLUMNS} FROM flags WHERE task_id IN ${d.idSet} ORDER BY task_id, ${d.seq}`, d.idParam(flagged))).map(toFlag)
  return { rows, lastTaskId: tasks.length === 0 ? null : tasks[tasks.length - 1].taskId }
}
