/**
 * Tally rows → StoredTallies, shared by both backends (their SELECTs differ, not their rows).
 */
import { bytesToInt32, LITTLE_ENDIAN } from './int32-blob'
import { parseStringArray } from './rows'
import type { StoredTallies } from './contract'
import type { ColumnType, TypedColumns } from './plan'

export type TallyRow = {
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

/** A tally row's columns: the table each comes from (tt: task_tallies, t: tasks), its name, its type for a bulk read. */
const TALLY_SOURCES: readonly (readonly ['t' | 'tt', string, ColumnType])[] = [
  ['tt', 'task_id', 'text'], ['tt', 'k', 'int4'], ['tt', 'seats', 'json'], ['tt', 'rounds', 'json'], ['tt', 'counts', 'bytea'],
  ['tt', 'vote0', 'bytea'], ['tt', 'social_p1', 'float8'], ['t', 'candidates', 'json'], ['t', 'grp', 'text']
]

export const TALLY_COLUMNS = TALLY_SOURCES.map(([table, c]) => `${table}.${c}`).join(', ')

/** TALLY_COLUMNS typed, for a bulk read (../plan.ts). */
export const TALLY_COLUMN_TYPES: TypedColumns = TALLY_SOURCES.map(([, c, type]) => [c, type] as const)

export function toStoredTallies(r: TallyRow): StoredTallies {
  return {
    taskId: r.task_id,
    candidates: parseStringArray(r.candidates),
    group: r.grp,
    K: r.k,
    seatIds: parseStringArray(r.seats),
    rounds: JSON.parse(r.rounds) as number[],
    counts: bytesToInt32(r.counts),
    vote0: bytesToInt32(r.vote0),
    socialP1: r.social_p1
  }
}

/**
 * A page of tallies, built to be held by the million (a fit keeps every task's): the page's count
 * arrays are views on one slab (one allocation, not two per task), and tasks with the same
 * candidates, seats or rounds share one frozen array. Callers must not mutate them.
 */
export function toTallyPage(rows: TallyRow[]): StoredTallies[] {
  let ints = 0
  for (const r of rows) ints += (r.counts.byteLength >> 2) + (r.vote0.byteLength >> 2)
  const slab = new Int32Array(ints)
  let at = 0
  const view = (b: Buffer): Int32Array => {
    const n = b.byteLength >> 2
    const out = slab.subarray(at, at + n)
    if (LITTLE_ENDIAN) new Uint8Array(slab.buffer, at * 4, n * 4).set(b.subarray(0, n * 4))
    else out.set(bytesToInt32(b))
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
