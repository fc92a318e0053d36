/**
 * Per-task tallies (ENGINE.md §2): written with the task at import, read page by page by fit and
 * decide, backfilled for tasks imported before they existed. Int32 arrays are stored as
 * little-endian bytes (bytea) of the VIEW, as in SQLite (see sqlite/tallies.ts).
 */
import {
  StoreError,
  type Actor,
  type ExistingTask,
  type StoredTallies,
  type TallyInput,
  type TaskTrace
} from '../contract'
import { checkId, checkInt } from '../validate'
import { checkTallies } from '../tallies-check'
import { appendAudit } from '../ops/audit'
import type { PgSql } from './connection'
import { parseStringArray } from '../rows'
import { int32ToBytes } from '../int32-blob'
import { TALLY_COLUMNS, toStoredTallies, toTallyPage, type TallyRow } from '../tally-rows'
import { readTaskTraces } from '../ops/tasks'
import { EFFECTIVE_LABEL_ID as effectiveLabelId } from '../label-rules'
import { POSTGRES } from './dialect'
import { runPlan } from './plan-driver'

/** Tallies of several tasks in one statement. */
export async function insertTallies(q: PgSql, rows: { taskId: string; tallies: TallyInput }[]): Promise<void> {
  if (rows.length === 0) return
  await q.run(
    `INSERT INTO task_tallies (task_id, k, seats, rounds, counts, vote0, social_p1)
     SELECT u.id, u.k, u.seats::json, u.rounds::json, u.counts, u.vote0, u.p
     FROM unnest(?::text[], ?::integer[], ?::text[], ?::text[], ?::bytea[], ?::bytea[], ?::float8[]) AS u(id, k, seats, rounds, counts, vote0, p)`,
    rows.map((r) => r.taskId), rows.map((r) => r.tallies.K), rows.map((r) => JSON.stringify(r.tallies.seatIds)),
    rows.map((r) => JSON.stringify(r.tallies.rounds)), rows.map((r) => int32ToBytes(r.tallies.counts)),
    rows.map((r) => int32ToBytes(r.tallies.vote0)), rows.map((r) => r.tallies.socialP1)
  )
}

/**
 * A page of tallies, built to be held by the million: the page's count arrays are views on one
 * slab, and tasks with the same candidates, seats or rounds share one frozen array (see
 * sqlite/tallies.ts). Callers must not mutate them.
 */
export async function tallyPage(q: PgSql, afterTaskId: string | null, limit: number): Promise<StoredTallies[]> {
  checkInt(limit, 'limit', 1)
  const rows = await q.all<TallyRow>(
    `SELECT ${TALLY_COLUMNS} FROM tasks t JOIN imports i ON i.id = t.import_id AND i.state = 'published'
     JOIN task_tallies tt ON tt.task_id = t.id WHERE t.id > ? ORDER BY t.id LIMIT ?`,
    afterTaskId ?? '', Math.min(limit, 100_000)
  )
  return toTallyPage(rows)
}

export async function talliesOf(q: PgSql, taskIds: string[]): Promise<StoredTallies[]> {
  if (!Array.isArray(taskIds)) throw new StoreError('bad_input', 'taskIds must be an array')
  taskIds.forEach((id) => checkId(id, 'taskId'))
  // One statement for the list, in the caller's order.
  const rows = await q.all<TallyRow>(
    `SELECT ${TALLY_COLUMNS} FROM unnest(?::text[]) WITH ORDINALITY AS j(id, n) JOIN tasks t ON t.id = j.id
     JOIN imports i ON i.id = t.import_id AND i.state = 'published' JOIN task_tallies tt ON tt.task_id = t.id ORDER BY j.n`,
    taskIds
  )
  return rows.map(toStoredTallies)
}

export async function seatModels(q: PgSql): Promise<Record<string, string>> {
  const out: Record<string, string> = {}
  const rows = await q.all<{ id: string; model: string }>(
    `SELECT s.id, s.model FROM seats s JOIN imports i ON i.id = s.import_id AND i.state = 'published'
     WHERE s.model IS NOT NULL ORDER BY i.published_at, s.id`
  )
  for (const r of rows) if (!(r.id in out)) out[r.id] = r.model
  return out
}

export async function tasksWithoutTallies(q: PgSql, limit: number): Promise<TaskTrace[]> {
  checkInt(limit, 'limit', 1)
  const ids = (
    await q.all<{ id: string }>(
      `SELECT t.id FROM tasks t JOIN imports i ON i.id = t.import_id AND i.state = 'published'
       WHERE NOT EXISTS (SELECT 1 FROM task_tallies tt WHERE tt.task_id = t.id) ORDER BY t.id LIMIT ?`,
      Math.min(limit, 10_000)
    )
  ).map((r) => r.id)
  return runPlan(q, readTaskTraces(ids))
}

export async function saveTallies(q: PgSql, now: string, rows: { taskId: string; tallies: TallyInput }[], actor: Actor): Promise<number> {
  if (!Array.isArray(rows)) throw new StoreError('bad_input', 'rows must be an array')
  let written = 0
  for (const { taskId, tallies } of rows) {
    checkId(taskId, 'taskId')
    const task = await q.get<{ candidates: string }>(
      `SELECT t.candidates FROM tasks t JOIN imports i ON i.id = t.import_id AND i.state = 'published' WHERE t.id = ?`,
      taskId
    )
    if (task === undefined) throw new StoreError('not_found', `no task ${taskId}`, { taskId })
    checkTallies(taskId, parseStringArray(task.candidates).length, tallies)
    if ((await q.get('SELECT 1 AS one FROM task_tallies WHERE task_id = ?', taskId)) !== undefined) continue
    await insertTallies(q, [{ taskId, tallies }])
    written++
  }
  if (written > 0) await runPlan(q, appendAudit(now, actor, 'tallies.backfill', null, { tasks: written }))
  return written
}

export async function existingTasks(q: PgSql, taskIds: string[]): Promise<ExistingTask[]> {
  if (!Array.isArray(taskIds)) throw new StoreError('bad_input', 'taskIds must be an array')
  taskIds.forEach((id) => checkId(id, 'taskId'))
  // One statement for the whole list: an import asks about every id of its file.
  const rows = await q.all<{ id: string; content_sha256: string; candidates: string; import_id: string; file_name: string; state: 'staged' | 'published' }>(
    `SELECT t.id, t.content_sha256, t.candidates, t.import_id, i.file_name, i.state
     FROM unnest(?::text[]) WITH ORDINALITY AS j(id, n) JOIN tasks t ON t.id = j.id JOIN imports i ON i.id = t.import_id
     WHERE i.state <> 'abandoned' ORDER BY j.n`,
    taskIds
  )
  return rows.map((r) => ({
    taskId: r.id, contentSha256: r.content_sha256, candidates: parseStringArray(r.candidates), importId: r.import_id, fileName: r.file_name, state: r.state
  }))
}

/** The shared label rules (../label-rules.ts) in this backend's dialect. */
export { LIVE_LABEL } from '../label-rules'
export const EFFECTIVE_LABEL_ID = (taskExpr: string): string => effectiveLabelId(taskExpr, POSTGRES)
