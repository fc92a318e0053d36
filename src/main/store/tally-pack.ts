/**
 * Tally packs: the tallies of up to PACK_TASKS tasks of one published import, in task-id order,
 * as one row. Why: a fit or decide reads every task's tallies, and a row per task cost a million
 * rows, two driver buffers and three JSON texts each — a large part of a million-task decide. A pack is a
 * few large values instead, and its count arrays are views on one buffer, never copied.
 *
 * A pack is derived data: a published import's tasks and tallies never change, so its packs,
 * written once (all in one transaction), stay true; the per-task rows stay the source (the review
 * screen, the seat filter, single-task reads). Encoding, shared by both backends:
 * - `ids`: JSON array of the task ids, ascending;
 * - `dict`: JSON `{ candidates: string[][], seats: string[][], rounds: number[][] }`, each distinct
 *   list once;
 * - `meta`: Int32 LE, three per task: its candidates', seats' and rounds' index in `dict`;
 * - `ints`: Int32 LE, per task its counts (R·S·(2K+2)) then vote0 (S), back to back.
 */
import { bytesToInt32, int32ToBytes, LITTLE_ENDIAN } from './int32-blob'
import { StoreError, type StoredTallies, type TallyPackRow } from './contract'

export const PACK_TASKS = 10_000


/** One task of a decoded pack: the shared lists and views on the pack's one buffer. */
export type PackedTallies = {
  taskId: string
  candidates: readonly string[]
  seatIds: readonly string[]
  rounds: readonly number[]
  K: number
  counts: Int32Array
  vote0: Int32Array
}

type Dict = { candidates: string[][]; seats: string[][]; rounds: number[][] }

/**
 * Task ids in the stores' order: SQLite's BINARY and PostgreSQL's "C" collations compare UTF-8
 * bytes, which is code point order (JavaScript's `<` compares UTF-16 units, which differs above
 * U+FFFF).
 */
export function compareIds(a: string, b: string): number {
  const n = Math.min(a.length, b.length)
  for (let i = 0; i < n; i++) {
    const x = a.codePointAt(i) as number
    const y = b.codePointAt(i) as number
    if (x !== y) return x - y
    if (x > 0xffff) i++
  }
  return a.length - b.length
}

/** Packs consecutive tasks (ascending ids) of one import. */
export function encodeTallyPack(tasks: readonly StoredTallies[]): TallyPackRow {
  if (tasks.length === 0 || tasks.length > PACK_TASKS) throw new StoreError('internal', `a tally pack holds 1 to ${PACK_TASKS} tasks, not ${tasks.length}`)
  const dict: Dict = { candidates: [], seats: [], rounds: [] }
  const indexes = { candidates: new Map<string, number>(), seats: new Map<string, number>(), rounds: new Map<string, number>() }
  const indexOf = <K extends keyof Dict>(kind: K, list: Dict[K][number]): number => {
    const key = JSON.stringify(list)
    let i = indexes[kind].get(key)
    if (i === undefined) {
      i = dict[kind].length
      ;(dict[kind] as unknown[]).push(list)
      indexes[kind].set(key, i)
    }
    return i
  }
  const meta = new Int32Array(tasks.length * 3)
  let ints = 0
  for (const t of tasks) ints += t.counts.length + t.vote0.length
  const all = new Int32Array(ints)
  let at = 0
  tasks.forEach((t, i) => {
    if (i > 0 && compareIds(tasks[i - 1].taskId, t.taskId) >= 0) throw new StoreError('internal', `tally pack tasks out of order at ${t.taskId}`)
    meta[3 * i] = indexOf('candidates', t.candidates)
    meta[3 * i + 1] = indexOf('seats', t.seatIds)
    meta[3 * i + 2] = indexOf('rounds', t.rounds)
    all.set(t.counts, at)
    all.set(t.vote0, at + t.counts.length)
    at += t.counts.length + t.vote0.length
  })
  return {
    tasks: tasks.length,
    first_task: tasks[0].taskId,
    last_task: tasks[tasks.length - 1].taskId,
    ids: JSON.stringify(tasks.map((t) => t.taskId)),
    dict: JSON.stringify(dict),
    meta: int32ToBytes(meta),
    ints: int32ToBytes(all)
  }
}

/** An Int32Array over the driver's buffer when it is aligned (no copy), else a copy. */
function int32View(b: Buffer): Int32Array {
  if (LITTLE_ENDIAN && b.byteOffset % 4 === 0) return new Int32Array(b.buffer, b.byteOffset, b.byteLength >> 2)
  return bytesToInt32(b)
}

/** A pack as read: columns, not a million objects (a corpus holds every pack of every import). */
export type DecodedPack = {
  ids: string[]
  /** Three per task: its candidates', seats' and rounds' index in the lists below. */
  lists: Int32Array
  /** Task j's counts start at `start[j]` in `ints`, its vote0 follows; `start[n]` = the end. */
  start: Int32Array
  ints: Int32Array
  candidates: readonly (readonly string[])[]
  seats: readonly (readonly string[])[]
  rounds: readonly (readonly number[])[]
}

/** Refuses (`internal`) a pack whose parts disagree. Lists are shared and frozen. */
export function decodeTallyPack(row: TallyPackRow, where: string): DecodedPack {
  const bad = (why: string) => new StoreError('internal', `tally pack ${where} is damaged: ${why}`)
  const ids = JSON.parse(row.ids) as string[]
  const dict = JSON.parse(row.dict) as Dict
  const lists = int32View(row.meta)
  const ints = int32View(row.ints)
  if (ids.length !== row.tasks || lists.length !== 3 * row.tasks) throw bad(`${ids.length} ids and ${lists.length / 3} entries for ${row.tasks} tasks`)
  const pack: DecodedPack = {
    ids, lists, ints, start: new Int32Array(ids.length + 1),
    candidates: dict.candidates.map((c) => Object.freeze(c)),
    seats: dict.seats.map((x) => Object.freeze(x)),
    rounds: dict.rounds.map((r) => Object.freeze(r))
  }
  let at = 0
  for (let j = 0; j < ids.length; j++) {
    const c = pack.candidates[lists[3 * j]]
    const S = pack.seats[lists[3 * j + 1]]?.length
    const R = pack.rounds[lists[3 * j + 2]]?.length
    if (c === undefined || S === undefined || R === undefined) throw bad(`task ${ids[j]} names a list it does not hold`)
    pack.start[j] = at
    at += R * S * (2 * c.length + 2) + S
    if (at > ints.length) throw bad(`task ${ids[j]} runs past its counts`)
  }
  if (at !== ints.length) throw bad(`${ints.length - at} counts left over`)
  pack.start[ids.length] = at
  return pack
}

/** Task `j` of a decoded pack: its shared lists and views on the pack's buffer (never mutate them). */
export function packedAt(p: DecodedPack, j: number): PackedTallies {
  const candidates = p.candidates[p.lists[3 * j]]
  const seatIds = p.seats[p.lists[3 * j + 1]]
  const at = p.start[j]
  const vote0At = p.start[j + 1] - seatIds.length
  return { taskId: p.ids[j], candidates, seatIds, rounds: p.rounds[p.lists[3 * j + 2]], K: candidates.length, counts: p.ints.subarray(at, vote0At), vote0: p.ints.subarray(vote0At, p.start[j + 1]) }
}

export function unpack(p: DecodedPack): PackedTallies[] {
  return p.ids.map((_, j) => packedAt(p, j))
}
