/**
 * An import's staged batches, this backend's bulk write (the rest of an import's life, its sweep
 * and its ownership are written once, ../ops/imports.ts and ../ops/import-owners.ts).
 */
import type { ImportBatch, ImportBatchResult, ImportRecord, PreparedTask, SeatInput } from '../contract'
import { admitSeat, seatCache, seatIsNews, type SeatCache } from '../ops/import-seats'
import { recordBatch, stagedBatch } from '../ops/imports'
import { insertTallies } from '../ops/tallies'
import { taskAdmission, type ExistingTask } from '../task-admission'
import type { Sql } from './connection'
import { SQLITE } from './dialect'
import { runPlan } from './plan-driver'

/** A seat mention: most are not news and cost nothing (../ops/import-seats.ts). */
function admit(q: Sql, imp: ImportRecord, s: SeatInput, own: SeatCache): number {
  return seatIsNews(s, own) ? runPlan(q, admitSeat(imp, s, own)) : 0
}

/** The rows a batch's ids already have, in one statement (most batches of a new file have none). */
function existingRows(q: Sql, tasks: PreparedTask[]): Map<string, ExistingTask> {
  const rows = q.all<ExistingTask & { id: string }>(
    `SELECT t.id, t.import_id, t.content_sha256, i.state, i.file_name, i.created_by, i.shell, i.session_id, i.created_at
     FROM json_each(?) j JOIN tasks t ON t.id = j.value JOIN imports i ON i.id = t.import_id`,
    JSON.stringify(tasks.map((t) => t.id))
  )
  return new Map(rows.map((r) => [r.id, r]))
}

/** true: insert it; false: skip it (same content already present). Throws on a real clash (task-admission.ts). */
function admitTask(q: Sql, imp: ImportRecord, t: PreparedTask, old: ExistingTask | undefined): boolean {
  const admission = taskAdmission(imp, t, old)
  // Left over from an abandoned import not yet swept: it was never visible, replace it.
  if (admission === 'replace') q.run('DELETE FROM tasks WHERE id = ?', t.id)
  return admission !== 'skip'
}

/** Inserts a task and its moves (one row: migration 0003); returns the task's rowid (the batch indexes its questions by range). */
function insertTask(q: Sql, imp: ImportRecord, t: PreparedTask, now: string): number {
  const rowid = q.insert(
    `INSERT INTO tasks (id, import_id, question, candidates, gold, grp, raw, content_sha256, version, created_at, move_count)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?)`,
    t.id, imp.id, t.question, t.candidates, t.gold, t.group, t.raw, t.contentSha256, now, t.moveCount
  )
  q.run('INSERT INTO task_moves (task_id, moves) VALUES (?, ?)', t.id, t.moves)
  if (t.tallies !== null) runPlan(q, insertTallies(t.id, t.tallies))
  return rowid
}

/** The batch's questions into the search index, in one statement (migration 0002 explains why). */
function indexQuestions(q: Sql, importId: string, first: number, last: number): void {
  if (!q.hasTable('task_search')) return // a test-only schema history may not have it
  q.run(
    `INSERT INTO task_search (rowid, task_id, question) SELECT rowid, id, question FROM tasks
     WHERE rowid BETWEEN ? AND ? AND import_id = ? AND question IS NOT NULL`,
    first, last, importId
  )
}

export function writeImportBatch(q: Sql, now: string, importId: string, batch: ImportBatch): ImportBatchResult {
  const { imp, extraSeats, tasks } = runPlan(q, stagedBatch(SQLITE, importId, batch))

  const own = runPlan(q, seatCache(imp.id))
  const existing = existingRows(q, tasks)
  const written = new Map<string, string>() // id → content hash, for a task twice in one batch
  const result: ImportBatchResult = { written: 0, skipped: 0, moves: 0, seats: 0 }
  let first = Infinity
  let last = -Infinity
  for (const s of extraSeats) result.seats += admit(q, imp, { id: s.id, model: s.model ?? null }, own)
  for (const t of tasks) {
    // A second copy of a task within one batch meets the first one, as it would across batches.
    const earlier = written.get(t.id)
    const old = earlier !== undefined ? { import_id: imp.id, content_sha256: earlier, state: 'staged' as const, file_name: imp.fileName } : existing.get(t.id)
    if (!admitTask(q, imp, t, old)) {
      result.skipped++
      continue
    }
    for (const [id, model] of t.seats) result.seats += admit(q, imp, { id, model }, own)
    const rowid = insertTask(q, imp, t, now)
    written.set(t.id, t.contentSha256)
    first = Math.min(first, rowid)
    last = Math.max(last, rowid)
    result.written++
    result.moves += t.moveCount
  }
  if (result.written > 0) indexQuestions(q, imp.id, first, last)
  runPlan(q, recordBatch(now, imp, result))
  return result
}
