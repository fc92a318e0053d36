/**
 * A decision's number lists as both backends store them (SQLite since schema 5, PostgreSQL since
 * its 0004): little-endian float64 BLOBs (bytea), NaN standing for null. Why not JSON text: a decide writes a million rows of posteriors, bounds,
 * k and gap decompositions, and formatting their ten-odd floats per row as the shortest
 * round-tripping decimal was a large share of the write, which raw float64 bytes skip. The
 * bytes are exact, so nothing is rounded. A stored number is never NaN (the store
 * refuses non-finite numbers), so NaN ↔ null is unambiguous.
 *
 * The posterior is stored in the task's candidate order (the task's candidate list, immutable, is
 * its key list), so the BLOB holds no names. A SQLite fit decided before schema 5 keeps its JSON
 * text: the readers take either (`typeof` tells them apart).
 */
import { LITTLE_ENDIAN } from './int32-blob'
import type { DecisionWhy } from './contract'

/** The five figures every gap decomposition has, in their stored order. */
export const WHY_KEYS = ['round', 'k', 'qhat', 'bias', 'conc'] as const
/**
 * A page keeps six figures per row: WHY_KEYS, then `n` (NaN when the engine did not report it).
 * Stored, a decomposition without `n` stays the five figures schema 5 wrote (byte for byte); one
 * with `n` appends it as a sixth (schema 6), which readers of either take.
 */
export const WHY_STRIDE = WHY_KEYS.length + 1
export const WHY_N = WHY_KEYS.length

/**
 * The stored bytes of values[at … at + n): on a little-endian machine a view of them, no copy
 * (SQLite copies a bound BLOB, so the array only has to outlive the statement).
 */
export function bytesOf(values: Float64Array, at: number, n: number): Buffer {
  if (LITTLE_ENDIAN) return Buffer.from(values.buffer, values.byteOffset + at * 8, n * 8)
  const out = Buffer.alloc(n * 8)
  for (let i = 0; i < n; i++) out.writeDoubleLE(values[at + i], i * 8)
  return out
}

/** values[at + order[g]] for each g, as stored bytes: a posterior put in its task's candidate order. */
export function gatheredBytes(values: Float64Array, at: number, order: Int32Array): Buffer {
  const out = new Float64Array(order.length)
  for (let g = 0; g < order.length; g++) out[g] = values[at + order[g]]
  return bytesOf(out, 0, out.length)
}

/**
 * Where each of a task's candidates is in a posterior's key list: an empty array when the lists
 * are equal (the values are stored as they are), null when they are not the same names.
 */
export function candidateOrder(candidates: readonly string[], keys: readonly string[]): Int32Array | null {
  if (candidates.length !== keys.length) return null
  let same = true
  for (let g = 0; g < keys.length; g++) if (keys[g] !== candidates[g]) same = false
  if (same) return new Int32Array(0)
  const order = new Int32Array(candidates.length)
  for (let g = 0; g < candidates.length; g++) {
    const at = keys.indexOf(candidates[g])
    if (at < 0) return null
    order[g] = at
  }
  return order
}

/** A stored number-list column as either format gives it: a BLOB (schema 5) or JSON text (before). */
export type StoredNumbers = string | Uint8Array

export function readPosterior(v: StoredNumbers, candidates: readonly string[]): Record<string, number> {
  if (typeof v === 'string') return JSON.parse(v) as Record<string, number>
  const f = bytesToFloat64(v)
  const out: Record<string, number> = {}
  for (let g = 0; g < candidates.length && g < f.length; g++) out[candidates[g]] = f[g]
  return out
}

export function readNumbers(v: StoredNumbers | null): (number | null)[] | null {
  if (v === null) return null
  if (typeof v === 'string') return JSON.parse(v) as (number | null)[]
  return Array.from(bytesToFloat64(v), (x) => (Number.isNaN(x) ? null : x))
}

/**
 * The stored decomposition; null unless all five figures are there (a partial one would mislead),
 * with `n` when it was stored.
 */
export function readWhy(v: StoredNumbers | null): DecisionWhy | null {
  if (v === null) return null
  const f: unknown[] = typeof v === 'string' ? whyValues(JSON.parse(v)) : Array.from(bytesToFloat64(v), (x) => (Number.isNaN(x) ? null : x))
  if (f.length === WHY_STRIDE && typeof f[WHY_N] !== 'number') f.pop()
  if ((f.length !== WHY_KEYS.length && f.length !== WHY_STRIDE) || !f.every((x) => typeof x === 'number')) return null
  const [round, k, qhat, bias, conc, n] = f as number[]
  return n === undefined ? { round, k, qhat, bias, conc } : { round, k, n, qhat, bias, conc }
}

/** A JSON decomposition's figures in WHY_KEYS order, then `n` if it has one (anything else reads as incomplete). */
function whyValues(o: unknown): unknown[] {
  if (o === null || typeof o !== 'object' || Array.isArray(o)) return []
  const r = o as Record<string, unknown>
  const f = WHY_KEYS.map((k) => r[k])
  if (r.n !== undefined) f.push(r.n)
  return f
}

/** How many of a page row's six why figures to store: five without `n`, six with it. */
export function storedWhyLength(whys: Float64Array, at: number): number {
  return Number.isNaN(whys[at + WHY_N]) ? WHY_KEYS.length : WHY_STRIDE
}

/** A copy: the driver's buffer may start at any byte offset, and a Float64Array needs 8-byte alignment. */
function bytesToFloat64(b: Uint8Array): Float64Array {
  const out = new Float64Array(b.byteLength >> 3)
  if (LITTLE_ENDIAN) new Uint8Array(out.buffer).set(b.subarray(0, out.length * 8))
  else {
    const view = new DataView(b.buffer, b.byteOffset, b.byteLength)
    for (let i = 0; i < out.length; i++) out[i] = view.getFloat64(i * 8, true)
  }
  return out
}
