/**
 * Tally packs (../tally-pack.ts): which published imports are packed, one import's tallies by
 * task id to pack them, a pack by its part number, and an import's packs written all at once.
 */
import { StoreError } from '../contract'
import { checkId, checkInt } from '../validate'
import { encodedPackCheck } from '../tally-sources'
import type { TallyPackRow, TallySource } from '../contract'
import { TALLY_COLUMNS, toTallyPage, type TallyRow } from '../tally-rows'
import type { StoredTallies } from '../contract'
import type { Sql } from './connection'

const SOURCES = `SELECT i.id AS importId,
    (SELECT count(*) FROM tasks t WHERE t.import_id = i.id) AS tasks,
    (SELECT coalesce(sum(p.tasks), 0) FROM tally_packs p WHERE p.import_id = i.id) AS packedTasks
  FROM imports i WHERE i.state = 'published' AND EXISTS (SELECT 1 FROM tasks t WHERE t.import_id = i.id)`

/** Published imports with tasks, oldest first, with how many of their tasks are packed. */
export function tallySources(q: Sql): TallySource[] {
  return q.all<TallySource>(`${SOURCES} ORDER BY i.published_at, i.id`)
}

/**
 * One published import's tallies by task id: a walk of the task-id index with the import as a
 * filter (`+` keeps SQLite off tasks_by_import, which would sort all the import's tasks for
 * every page — a million-task import packed in 50 s instead of 11).
 */
export const IMPORT_TALLY_PAGE = `SELECT ${TALLY_COLUMNS} FROM tasks t CROSS JOIN imports i ON i.id = t.import_id AND i.state = 'published'
  CROSS JOIN task_tallies tt ON tt.task_id = t.id WHERE t.id > ? AND +t.import_id = ? ORDER BY t.id LIMIT ?`

export function importTallyPage(q: Sql, importId: string, afterTaskId: string | null, limit: number): StoredTallies[] {
  checkId(importId, 'importId')
  checkInt(limit, 'limit', 1)
  const rows = q.all<TallyRow>(IMPORT_TALLY_PAGE, afterTaskId ?? '', importId, Math.min(limit, 100_000))
  return toTallyPage(rows)
}

export function tallyPack(q: Sql, importId: string, part: number): TallyPackRow | null {
  checkId(importId, 'importId')
  checkInt(part, 'part')
  return (
    q.get<TallyPackRow>('SELECT tasks, first_task, last_task, ids, dict, meta, ints FROM tally_packs WHERE import_id = ? AND part = ?', importId, part) ??
    null
  )
}

/**
 * All of an import's packs in one transaction, so an import is packed wholly or not at all.
 * Returns how many were written: 0 when another process packed it first.
 */
export function saveTallyPacks(q: Sql, importId: string, packs: TallyPackRow[]): number {
  checkId(importId, 'importId')
  const source = q.get<TallySource>(`${SOURCES} AND i.id = ?`, importId)
  if (source === undefined) throw new StoreError('not_found', `no published import ${importId} with tasks`, { importId })
  if (source.packedTasks > 0) return 0
  encodedPackCheck(source, packs)
  packs.forEach((p, part) =>
    q.run(
      'INSERT INTO tally_packs (import_id, part, tasks, first_task, last_task, ids, dict, meta, ints) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      importId, part, p.tasks, p.first_task, p.last_task, p.ids, p.dict, p.meta, p.ints
    )
  )
  return packs.length
}
