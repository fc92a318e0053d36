/**
 * Tallies SQLite reads its own way: a list of tasks' tallies and existing rows (the rest of the
 * tallies' life is written once, ../ops/tallies.ts).
 */
import { StoreError, type ExistingTask, type StoredTallies } from '../contract'
import { parseStringArray } from '../rows'
import { TALLY_COLUMNS, toStoredTallies, type TallyRow } from '../tally-rows'
import { checkId } from '../validate'
import type { Sql } from './connection'

export function loadTallies(q: Sql, taskIds: string[]): StoredTallies[] {
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
