/**
 * Tallies PostgreSQL writes and reads its own way: an import batch's tallies in one COPY
 * (int32 arrays as little-endian bytea of the VIEW, as ../int32-blob.ts says), a list of tasks'
 * tallies and existing rows. The rest of the tallies' life is written once (../ops/tallies.ts).
 */
import { StoreError, type ExistingTask, type StoredTallies, type TallyInput } from '../contract'
import { int32ToBytes } from '../int32-blob'
import { parseStringArray } from '../rows'
import { TALLY_COLUMNS, toStoredTallies, type TallyRow } from '../tally-rows'
import { checkId } from '../validate'
import type { PgSql } from './connection'
import { copyRows } from './copy'

const TALLY_COPY_COLUMNS = ['task_id', 'k', 'seats', 'rounds', 'counts', 'vote0', 'social_p1'] as const

/** Tallies of several tasks in one COPY (copy.ts). */
export async function insertTallies(q: PgSql, rows: { taskId: string; tallies: TallyInput }[]): Promise<void> {
  await copyRows(q, 'task_tallies', TALLY_COPY_COLUMNS, rows.map(({ taskId, tallies: t }) => [
    taskId, t.K, JSON.stringify(t.seatIds), JSON.stringify(t.rounds), int32ToBytes(t.counts), int32ToBytes(t.vote0), t.socialP1
  ]))
}

export async function loadTallies(q: PgSql, taskIds: string[]): Promise<StoredTallies[]> {
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
