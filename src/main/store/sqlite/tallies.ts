/**
 * Per-task tallies (ENGINE.md §2): written with the task at import, read page by page by fit and
 * decide, backfilled for tasks imported before they existed. Int32 arrays are stored as
 * little-endian bytes of the VIEW (byteOffset/byteLength): the engine's arrays are views on a
 * shared slab, so `.buffer` would store the neighbours too.
 */
import { endianness } from 'node:os'
import {
  StoreError,
  type Actor,
  type EffectiveLabel,
  type ExistingTask,
  type StoredTallies,
  type TallyInput,
  type TaskTrace
} from '../types'
import { checkId, checkInt } from '../validate'
import { checkTallies } from '../tallies-check'
import { appendAudit } from './audit'
import type { Sql } from './connection'
import { parseStringArray } from './rows'
import { readTaskTraces } from './traces'

const LITTLE = endianness() === 'LE'

export function int32ToBlob(a: Int32Array): Buffer {
  if (LITTLE) return Buffer.from(a.buffer, a.byteOffset, a.byteLength)
  const out = Buffer.alloc(a.length * 4)
  for (let i = 0; i < a.length; i++) out.writeInt32LE(a[i], i * 4)
  return out
}

/** A copy: SQLite's buffer may start at any byte offset, and an Int32Array needs 4-byte alignment. */
export function blobToInt32(b: Uint8Array): Int32Array {
  const out = new Int32Array(b.byteLength >> 2)
  if (LITTLE) new Uint8Array(out.buffer).set(b.subarray(0, out.length * 4))
  else {
    const view = new DataView(b.buffer, b.byteOffset, b.byteLength)
    for (let i = 0; i < out.length; i++) out[i] = view.getInt32(i * 4, true)
  }
  return out
}

export { checkTallies } from '../tallies-check'

export function insertTallies(q: Sql, taskId: string, t: TallyInput): void {
  q.run(
    `INSERT INTO task_tallies (task_id, k, seats, rounds, counts, vote0, social_p1) VALUES (?, ?, ?, ?, ?, ?, ?)`,
    taskId, t.K, JSON.stringify(t.seatIds), JSON.stringify(t.rounds), int32ToBlob(t.counts), int32ToBlob(t.vote0), t.socialP1
  )
}

type TallyRow = {
  task_id: string
  k: number
  seats: string
  rounds: string
  counts: Buffer
  vote0: Buffer
  social_p1: number
  candidates: string
  grp: string | null
}

export const TALLY_COLUMNS = 'tt.task_id, tt.k, tt.seats, tt.rounds, tt.counts, tt.vote0, tt.social_p1, t.candidates, t.grp'

export function toStoredTallies(r: TallyRow): StoredTallies {
  return {
    taskId: r.task_id,
    candidates: parseStringArray(r.candidates),
    group: r.grp,
    K: r.k,
    seatIds: parseStringArray(r.seats),
    rounds: JSON.parse(r.rounds) as number[],
    counts: blobToInt32(r.counts),
    vote0: blobToInt32(r.vote0),
    socialP1: r.social_p1
  }
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
  let ints = 0
  for (const r of rows) ints += (r.counts.byteLength >> 2) + (r.vote0.byteLength >> 2)
  const slab = new Int32Array(ints)
  let at = 0
  const view = (b: Buffer): Int32Array => {
    const n = b.byteLength >> 2
    const out = slab.subarray(at, at + n)
    if (LITTLE) new Uint8Array(slab.buffer, at * 4, n * 4).set(b.subarray(0, n * 4))
    else out.set(blobToInt32(b))
    at += n
    return out
  }
  const strings = new Map<string, readonly string[]>()
  const shared = (json: string): string[] => {
    let a = strings.get(json)
    if (a === undefined) strings.set(json, (a = Object.freeze(parseStringArray(json))))
    return a as string[]
  }
  const numbers = new Map<string, readonly number[]>()
  const sharedRounds = (json: string): number[] => {
    let a = numbers.get(json)
    if (a === undefined) numbers.set(json, (a = Object.freeze(JSON.parse(json) as number[])))
    return a as number[]
  }
  return rows.map((r) => ({
    taskId: r.task_id,
    candidates: shared(r.candidates),
    group: r.grp,
    K: r.k,
    seatIds: shared(r.seats),
    rounds: sharedRounds(r.rounds),
    counts: view(r.counts),
    vote0: view(r.vote0),
    socialP1: r.social_p1
  }))
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
  return readTaskTraces(q, ids)
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
  if (written > 0) appendAudit(q, now, actor, 'tallies.backfill', null, { tasks: written })
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

/** Live, not superseded, with a label: the SQL every "has a human label" test shares. */
export const LIVE_LABEL = (alias: string) =>
  `${alias}.label IS NOT NULL AND NOT EXISTS (SELECT 1 FROM labels s WHERE s.supersedes = ${alias}.id)`

/** The id of a task's effective label (latest adjudicated live label, else latest live label). */
export const EFFECTIVE_LABEL_ID = (taskExpr: string) =>
  `(SELECT ll.id FROM labels ll WHERE ll.task_id = ${taskExpr} AND ${LIVE_LABEL('ll')}
    ORDER BY ll.adjudicated DESC, ll.rowid DESC LIMIT 1)`

export function effectiveLabels(q: Sql): EffectiveLabel[] {
  const rows = q.all<{ id: string; task_id: string; label: string; source: 'random' | 'escalation'; reviewer: string; at: string; adjudicated: number }>(
    `SELECT l.id, l.task_id, l.label, l.source, l.reviewer, l.at, l.adjudicated FROM labels l
     WHERE ${LIVE_LABEL('l')} ORDER BY l.task_id, l.adjudicated, l.rowid`
  )
  // Rows come per task, adjudicated last and newest last: the last row of each task wins.
  const byTask = new Map<string, EffectiveLabel>()
  for (const r of rows) byTask.set(r.task_id, { taskId: r.task_id, labelId: r.id, label: r.label, source: r.source, reviewer: r.reviewer, at: r.at })
  return [...byTask.values()]
}
