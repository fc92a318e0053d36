/**
 * Tallies: each published task's sufficient statistics (../tally-rows.ts), read by the page for a
 * fit, backfilled for tasks imported before tallies existed, and packed per import
 * (../tally-pack.ts) the first time a fit reads it. An import batch writes its tasks' tallies with
 * the backend's bulk write (sqlite/imports.ts, postgres/tallies.ts).
 */
import { StoreError, type Actor, type StoredTallies, type TallyInput, type TallyPackRow, type TallySource, type TaskTrace } from '../contract'
import { int32ToBytes } from '../int32-blob'
import { bulkRowsOf, rowOf, rowsOf, run, type TypedColumns, type Plan } from '../plan'
import { parseStringArray } from '../rows'
import { checkTallies } from '../tallies-check'
import { encodedPackCheck } from '../tally-sources'
import { TALLY_COLUMNS, TALLY_COLUMN_TYPES, toTallyPage, type TallyRow } from '../tally-rows'
import { checkId, checkInt } from '../validate'
import { appendAudit } from './audit'
import type { Dialect } from './dialect'
import { readTaskTraces } from './tasks'

/**
 * A page of published tasks' tallies, walked by task id from the cursor with tasks the outer
 * loop (on SQLite the other way round made a million-task fit's read several times slower). The
 * cursor is given to the tallies too: PostgreSQL merge-joins the two keys' indexes, and without it
 * walked task_tallies from its first row for every page, each page slower than the one before.
 */
export const TALLY_PAGE = (d: Dialect): string =>
  `SELECT ${TALLY_COLUMNS} FROM tasks t ${d.joinInOrder} imports i ON i.id = t.import_id AND i.state = 'published'
  ${d.joinInOrder} task_tallies tt ON tt.task_id = t.id WHERE t.id > ? AND tt.task_id > ? ORDER BY t.id LIMIT ?`

/**
 * One published import's tallies by task id: a walk of the task-id index with the import as a
 * filter (kept off tasks_by_import, which would sort all the import's tasks for every page — a
 * million-task SQLite import's packing several times slower).
 */
export const IMPORT_TALLY_PAGE = (d: Dialect): string =>
  `SELECT ${TALLY_COLUMNS} FROM tasks t ${d.joinInOrder} imports i ON i.id = t.import_id AND i.state = 'published'
  ${d.joinInOrder} task_tallies tt ON tt.task_id = t.id WHERE t.id > ? AND tt.task_id > ? AND ${d.noIndex('t.import_id')} = ? ORDER BY t.id LIMIT ?`

/**
 * A page of tallies, built to be held by the million (a fit keeps every task's): the page's count
 * arrays are views on one slab (one allocation, not two per task), and tasks with the same
 * candidates, seats or rounds share one frozen array. Callers must not mutate them.
 */
export function* tallyPage(d: Dialect, afterTaskId: string | null, limit: number): Plan<StoredTallies[]> {
  checkInt(limit, 'limit', 1)
  const after = afterTaskId ?? ''
  return toTallyPage(yield* bulkRowsOf<TallyRow>(TALLY_PAGE(d), TALLY_COLUMN_TYPES, after, after, Math.min(limit, 100_000)))
}

export function* importTallyPage(d: Dialect, importId: string, afterTaskId: string | null, limit: number): Plan<StoredTallies[]> {
  checkId(importId, 'importId')
  checkInt(limit, 'limit', 1)
  const after = afterTaskId ?? ''
  return toTallyPage(yield* bulkRowsOf<TallyRow>(IMPORT_TALLY_PAGE(d), TALLY_COLUMN_TYPES, after, after, importId, Math.min(limit, 100_000)))
}

/** Models of the published seats that declared one; the first import to declare a seat names it. */
export function* seatModels(): Plan<Record<string, string>> {
  const out: Record<string, string> = {}
  const rows = yield* rowsOf<{ id: string; model: string }>(
    `SELECT s.id, s.model FROM seats s JOIN imports i ON i.id = s.import_id AND i.state = 'published'
     WHERE s.model IS NOT NULL ORDER BY i.published_at, s.id`
  )
  for (const r of rows) if (!(r.id in out)) out[r.id] = r.model
  return out
}

export function* tasksWithoutTallies(d: Dialect, limit: number): Plan<TaskTrace[]> {
  checkInt(limit, 'limit', 1)
  const ids = (yield* rowsOf<{ id: string }>(
    `SELECT t.id FROM tasks t ${d.joinInOrder} imports i ON i.id = t.import_id AND i.state = 'published'
     WHERE NOT EXISTS (SELECT 1 FROM task_tallies tt WHERE tt.task_id = t.id) ORDER BY t.id LIMIT ?`,
    Math.min(limit, 10_000)
  )).map((r) => r.id)
  return yield* readTaskTraces(ids)
}

/** One task's tallies, as an import batch writes them in bulk. */
export function* insertTallies(taskId: string, t: TallyInput): Plan<void> {
  yield* run(
    `INSERT INTO task_tallies (task_id, k, seats, rounds, counts, vote0, social_p1) VALUES (?, ?, ?, ?, ?, ?, ?)`,
    taskId, t.K, JSON.stringify(t.seatIds), JSON.stringify(t.rounds), int32ToBytes(t.counts), int32ToBytes(t.vote0), t.socialP1
  )
}

/** The backfill: tallies of published tasks that have none (a task that has them keeps its own). */
export function* saveTallies(now: string, rows: { taskId: string; tallies: TallyInput }[], actor: Actor): Plan<number> {
  if (!Array.isArray(rows)) throw new StoreError('bad_input', 'rows must be an array')
  let written = 0
  for (const { taskId, tallies } of rows) {
    checkId(taskId, 'taskId')
    const task = yield* rowOf<{ candidates: string }>(
      `SELECT t.candidates FROM tasks t JOIN imports i ON i.id = t.import_id AND i.state = 'published' WHERE t.id = ?`,
      taskId
    )
    if (task === undefined) throw new StoreError('not_found', `no task ${taskId}`, { taskId })
    checkTallies(taskId, parseStringArray(task.candidates).length, tallies)
    if ((yield* rowOf('SELECT 1 AS one FROM task_tallies WHERE task_id = ?', taskId)) !== undefined) continue
    yield* insertTallies(taskId, tallies)
    written++
  }
  if (written > 0) yield* appendAudit(now, actor, 'tallies.backfill', null, { tasks: written })
  return written
}

const SOURCES = `SELECT i.id AS "importId",
    (SELECT count(*) FROM tasks t WHERE t.import_id = i.id) AS tasks,
    (SELECT coalesce(sum(p.tasks), 0) FROM tally_packs p WHERE p.import_id = i.id) AS "packedTasks"
  FROM imports i WHERE i.state = 'published' AND EXISTS (SELECT 1 FROM tasks t WHERE t.import_id = i.id)`

const toSource = (r: TallySource): TallySource => ({ importId: r.importId, tasks: Number(r.tasks), packedTasks: Number(r.packedTasks) })

/** Published imports with tasks, oldest first, with how many of their tasks are packed. */
export function* tallySources(): Plan<TallySource[]> {
  return (yield* rowsOf<TallySource>(`${SOURCES} ORDER BY i.published_at, i.id`)).map(toSource)
}

const PACK_COLUMNS: TypedColumns = [['tasks', 'int4'], ['first_task', 'text'], ['last_task', 'text'], ['ids', 'text'], ['dict', 'text'], ['meta', 'bytea'], ['ints', 'bytea']]

export function* tallyPack(importId: string, part: number): Plan<TallyPackRow | null> {
  checkId(importId, 'importId')
  checkInt(part, 'part')
  const rows = yield* bulkRowsOf<TallyPackRow>(
    `SELECT ${PACK_COLUMNS.map(([c]) => c).join(', ')} FROM tally_packs WHERE import_id = ? AND part = ?`, PACK_COLUMNS, importId, part
  )
  return rows[0] ?? null
}

/**
 * All of an import's packs in one transaction, so an import is packed wholly or not at all (the
 * import row locked: two packers take turns). Returns how many were written: 0 when another
 * process packed it first.
 */
export function* saveTallyPacks(d: Dialect, importId: string, packs: TallyPackRow[]): Plan<number> {
  checkId(importId, 'importId')
  if (d.forUpdate() !== '') yield* rowOf(`SELECT id FROM imports WHERE id = ?${d.forUpdate()}`, importId)
  const row = yield* rowOf<TallySource>(`${SOURCES} AND i.id = ?`, importId)
  if (row === undefined) throw new StoreError('not_found', `no published import ${importId} with tasks`, { importId })
  const source = toSource(row)
  if (source.packedTasks > 0) return 0
  encodedPackCheck(source, packs)
  for (const [part, p] of packs.entries()) {
    yield* run(
      'INSERT INTO tally_packs (import_id, part, tasks, first_task, last_task, ids, dict, meta, ints) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      importId, part, p.tasks, p.first_task, p.last_task, p.ids, p.dict, p.meta, p.ints
    )
  }
  return packs.length
}
