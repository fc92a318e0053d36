/**
 * An import's staged batches, this backend's bulk write (the rest of an import's life, its sweep
 * and its ownership are written once, ../ops/imports.ts and ../ops/import-owners.ts). The import
 * row is locked by every step that changes it (../ops/imports.ts).
 */
import type { ImportBatch, ImportBatchResult, ImportRecord, PreparedTask, SeatInput, TallyInput } from '../contract'
import { admitSeat, seatCache, seatIsNews, type SeatCache } from '../ops/import-seats'
import { recordBatch, stagedBatch } from '../ops/imports'
import { taskAdmission, type ExistingTask } from '../task-admission'
import type { PgSql } from './connection'
import { POSTGRES } from './dialect'
import { runPlan } from './plan-driver'
import { searchLexemes } from './dialect'
import { copyRows } from './copy'
import { insertTallies } from './tallies'

/** A seat mention: most are not news and cost nothing (../ops/import-seats.ts). */
function admit(q: PgSql, imp: ImportRecord, s: SeatInput, own: SeatCache): Promise<number> {
  return seatIsNews(s, own) ? runPlan(q, admitSeat(imp, s, own)) : Promise.resolve(0)
}

/**
 * The rows a batch's ids already have, in one statement (asked only by a batch that met one).
 * `= ANY`, not a join on `unnest`: before its first ANALYZE a growing tasks table looked small
 * enough that every batch hashed the whole of it (a sequential scan a batch); an array compared on
 * each row costs the scan so much that the planner probes the key's index instead.
 */
async function existingRows(q: PgSql, tasks: PreparedTask[]): Promise<Map<string, ExistingTask>> {
  const rows = await q.all<ExistingTask & { id: string }>(
    `SELECT t.id, t.import_id, t.content_sha256, i.state, i.file_name, i.created_by, i.shell, i.session_id, i.created_at
     FROM tasks t JOIN imports i ON i.id = t.import_id WHERE t.id = ANY(?::text[])`,
    tasks.map((t) => t.id)
  )
  return new Map(rows.map((r) => [r.id, r]))
}

/** true: insert it; false: skip it (same content already present). Throws on a real clash (task-admission.ts). */
function admitTask(imp: ImportRecord, t: PreparedTask, old: ExistingTask | undefined, leftovers: string[]): boolean {
  const admission = taskAdmission(imp, t, old)
  // Left over from an abandoned import not yet swept: it was never visible, replace it.
  if (admission === 'replace') leftovers.push(t.id)
  return admission !== 'skip'
}

/** Tasks per COPY: a chunk's text is a few MB, built and sent at once. */
const CHUNK = 1000

const TASK_COLUMNS = ['id', 'import_id', 'question', 'candidates', 'gold', 'grp', 'raw', 'content_sha256', 'version', 'created_at', 'move_count'] as const

/**
 * Inserts the batch's admitted tasks, their moves (one row each, as SQLite's migration 0003 stores
 * them) and their tallies: one COPY a table per chunk of tasks, rows in batch order (copy.ts).
 */
async function insertTasks(q: PgSql, imp: ImportRecord, tasks: PreparedTask[], now: string): Promise<void> {
  for (let i = 0; i < tasks.length; i += CHUNK) {
    const chunk = tasks.slice(i, i + CHUNK)
    await copyRows(q, 'tasks', TASK_COLUMNS, chunk.map((t) => [t.id, imp.id, t.question, t.candidates, t.gold, t.group, t.raw, t.contentSha256, 0, now, t.moveCount]))
    await copyRows(q, 'task_moves', ['task_id', 'moves'], chunk.map((t) => [t.id, t.moves]))
    await insertTallies(q, chunk.filter((t) => t.tallies !== null).map((t) => ({ taskId: t.id, tallies: t.tallies as TallyInput })))
  }
}

/** The batch's questions into the search index, in one statement (dialect.ts makes the lexemes). */
async function indexQuestions(q: PgSql, tasks: PreparedTask[]): Promise<void> {
  const ids: string[] = []
  const words: string[] = []
  for (const t of tasks) {
    const lexemes = searchLexemes(t.question)
    if (lexemes.length === 0) continue
    ids.push(t.id)
    words.push(lexemes.join(' '))
  }
  if (ids.length === 0) return
  await q.run(
    `INSERT INTO task_search (task_id, words)
     SELECT u.id, array_to_tsvector(string_to_array(u.w, ' ')) FROM unnest(?::text[], ?::text[]) AS u(id, w)`,
    ids, words
  )
}

/**
 * Batches that met an id already in the database: each retry of such a batch looks its ids up
 * first. The import compared its whole file with the database before writing (writer.ts), so a
 * batch is written without looking; an id there after all (another import since, an abandoned
 * leftover, a task repeated further down the file) makes the COPY meet the key, and the batch is
 * retried from the start — on a fresh snapshot, where the other row is visible to task-admission.ts.
 */
const lookFirst = new WeakSet<ImportBatch>()
const UNIQUE_VIOLATION = '23505'
const SERIALIZATION_FAILURE = '40001'

export async function writeImportBatch(q: PgSql, now: string, importId: string, batch: ImportBatch): Promise<ImportBatchResult> {
  const { imp, extraSeats, tasks } = await runPlan(q, stagedBatch(POSTGRES, importId, batch))

  const own = await runPlan(q, seatCache(imp.id))
  const looking = lookFirst.has(batch)
  const existing = looking ? await existingRows(q, tasks) : new Map<string, ExistingTask>()
  const written = new Map<string, string>() // id → content hash, for a task twice in one batch
  const inserted: PreparedTask[] = []
  const result: ImportBatchResult = { written: 0, skipped: 0, moves: 0, seats: 0 }
  for (const s of extraSeats) result.seats += await admit(q, imp, { id: s.id, model: s.model ?? null }, own)
  const leftovers: string[] = []
  for (const t of tasks) {
    // A second copy of a task within one batch meets the first one, as it would across batches.
    const earlier = written.get(t.id)
    const old = earlier !== undefined ? { import_id: imp.id, content_sha256: earlier, state: 'staged' as const, file_name: imp.fileName } : existing.get(t.id)
    if (!admitTask(imp, t, old, leftovers)) {
      result.skipped++
      continue
    }
    // Most mentions are not news: no await for them (a million tasks, three seats each).
    for (const [id, model] of t.seats) if (seatIsNews({ id, model }, own)) result.seats += await admit(q, imp, { id, model }, own)
    written.set(t.id, t.contentSha256)
    inserted.push(t)
    result.written++
    result.moves += t.moveCount
  }
  if (leftovers.length > 0) await q.run('DELETE FROM tasks WHERE id = ANY(?::text[])', leftovers)
  try {
    await insertTasks(q, imp, inserted, now)
  } catch (e) {
    if (looking || (e as { code?: unknown }).code !== UNIQUE_VIOLATION) throw e
    lookFirst.add(batch)
    // Retried by the transaction (connection.ts), as a serialization failure is.
    throw Object.assign(new Error(`import ${imp.id}: a task id of this batch is already in the database; the batch is retried, looking first`), { code: SERIALIZATION_FAILURE, cause: e })
  }
  await indexQuestions(q, inserted)
  await runPlan(q, recordBatch(now, imp, result))
  return result
}
