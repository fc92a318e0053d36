/**
 * Per-task tallies (ENGINE.md §2): written with the task at import, read page by page by fit and
 * decide, backfilled for tasks imported before they existed. Int32 arrays are stored as
 * little-endian bytes of the VIEW (byteOffset/byteLength): the engine's arrays are views on a
 * shared slab, so `.buffer` would store the neighbours too.
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
import type { Sql } from './connection'
import { parseStringArray } from '../rows'
import { int32ToBytes } from '../int32-blob'
import { TALLY_COLUMNS, toStoredTallies, toTallyPage, type TallyRow } from '../tally-rows'
import { readTaskTraces } from '../ops/tasks'
import { EFFECTIVE_LABEL_ID as effectiveLabelId } from '../label-rules'
import { SQLITE } from './dialect'
import { runPlan } from './plan-driver'

export { checkTallies } from '../tallies-check'

export function insertTallies(q: Sql, taskId: string, t: TallyInput): void {
  q.run(
    `INSERT INTO task_tallies (task_id, k, seats, rounds, counts, vote0, social_p1) VALUES (?, ?, ?, ?, ?, ?, ?)`,
    taskId, t.K, JSON.stringify(t.seatIds), JSON.stringify(t.rounds), int32ToBytes(t.counts), int32ToBytes(t.vote0), t.socialP1
  )
}

/**
 * CROSS JOIN keeps tasks the outer loop, walked by id from the cursor: left to itself the planner
 * starts from the one published import and sorts all its tasks for every page (a million-task fit
 * read its tallies in 28 s instead of 9).
 */
export const TALLY_PAGE = `SELECT ${TALLY_COLUMNS} FROM tasks t CROSS JOIN imports i ON i.id = t.import_id AND i.state = 'published'
  CROSS JOIN task_tallies tt ON tt.task_id = t.id WHERE t.id > ? ORDER BY t.id LIMIT ?`

/**
 * A page of tallies, built to be held by the million (a fit keeps every task's): the page's count
 * arrays are views on one slab (one allocation, not two per task), and tasks with the same
 * candidates, seats or rounds share one frozen array. Callers must not mutate them.
 */
export function tallyPage(q: Sql, afterTaskId: string | null, limit: number): StoredTallies[] {
  checkInt(limit, 'limit', 1)
  const rows = q.all<TallyRow>(
    TALLY_PAGE,
    afterTaskId ?? '', Math.min(limit, 100_000)
  )
  return toTallyPage(rows)
}

export function talliesOf(q: Sql, taskIds: string[]): StoredTallies[] {
  if (!Array.isArray(taskIds)) throw new StoreError('bad_input', 'taskIds must be an array')
  const out: StoredTallies[] = []
  for (const id of taskIds) {
    checkId(id, 'taskId')
    const row = q.get<TallyRow>(
      `SELECT ${TALLY_COLUMNS} FROM tasks t JOIN imports i ON i.id = t.import_id AND i.state = 'published'
       JOIN task_tallies tt ON tt.task_id = t.id WHERE t.id = ?`,
      id
    )
    if (row !== undefined) out.push(toStoredTallies(row))
  }
  return out
}

export function seatModels(q: Sql): Record<string, string> {
  const out: Record<string, string> = {}
  const rows = q.all<{ id: string; model: string }>(
    `SELECT s.id, s.model FROM seats s JOIN imports i ON i.id = s.import_id AND i.state = 'published'
     WHERE s.model IS NOT NULL ORDER BY i.published_at, s.id`
  )
  for (const r of rows) if (!(r.id in out)) out[r.id] = r.model
  return out
}

export function tasksWithoutTallies(q: Sql, limit: number): TaskTrace[] {
  checkInt(limit, 'limit', 1)
  const ids = q
    .all<{ id: string }>(
      `SELECT t.id FROM tasks t CROSS JOIN imports i ON i.id = t.import_id AND i.state = 'published'
       WHERE NOT EXISTS (SELECT 1 FROM task_tallies tt WHERE tt.task_id = t.id) ORDER BY t.id LIMIT ?`,
      Math.min(limit, 10_000)
    )
    .map((r) => r.id)
  return runPlan(q, readTaskTraces(ids))
}

export function saveTallies(q: Sql, now: string, rows: { taskId: string; tallies: TallyInput }[], actor: Actor): number {
  if (!Array.isArray(rows)) throw new StoreError('bad_input', 'rows must be an array')
  let written = 0
  for (const { taskId, tallies } of rows) {
    checkId(taskId, 'taskId')
    const task = q.get<{ candidates: string }>(
      `SELECT t.candidates FROM tasks t JOIN imports i ON i.id = t.import_id AND i.state = 'published' WHERE t.id = ?`,
      taskId
    )
    if (task === undefined) throw new StoreError('not_found', `no task ${taskId}`, { taskId })
    checkTallies(taskId, parseStringArray(task.candidates).length, tallies)
    if (q.get('SELECT 1 AS one FROM task_tallies WHERE task_id = ?', taskId) !== undefined) continue
    insertTallies(q, taskId, tallies)
    written++
  }
  if (written > 0) runPlan(q, appendAudit(now, actor, 'tallies.backfill', null, { tasks: written }))
  return written
}

export function existingTasks(q: Sql, taskIds: string[]): ExistingTask[] {
  if (!Array.isArray(taskIds)) throw new StoreError('bad_input', 'taskIds must be an array')
  taskIds.forEach((id) => checkId(id, 'taskId'))
  // One statement for the whole list: an import asks about every id of its file.
  const rows = q.all<{ id: string; content_sha256: string; candidates: string; import_id: string; file_name: string; state: 'staged' | 'published' }>(
    `SELECT t.id, t.content_sha256, t.candidates, t.import_id, i.file_name, i.state
     FROM json_each(?) j JOIN tasks t ON t.id = j.value JOIN imports i ON i.id = t.import_id
     WHERE i.state <> 'abandoned' ORDER BY j.key`,
    JSON.stringify(taskIds)
  )
  return rows.map((r) => ({
    taskId: r.id, contentSha256: r.content_sha256, candidates: parseStringArray(r.candidates), importId: r.import_id, fileName: r.file_name, state: r.state
  }))
}

/** The shared label rules (../label-rules.ts) in this backend's dialect. */
export { LIVE_LABEL } from '../label-rules'
export const EFFECTIVE_LABEL_ID = (taskExpr: string): string => effectiveLabelId(taskExpr, SQLITE)
