/**
 * A decision's number lists as SQLite stores them since schema 5: little-endian float64 BLOBs,
 * NaN standing for null. Why not JSON text: a decide writes a million rows of posteriors, bounds,
 * k and gap decompositions, and formatting their ten-odd floats per row as the shortest
 * round-tripping decimal was a third of the write (measured: 1M rows in 6.0 s as JSON, 3.2 s as
 * BLOBs). The bytes are exact, so nothing is rounded. A stored number is never NaN (the store
 * refuses non-finite numbers), so NaN ↔ null is unambiguous.
 *
 * The posterior is stored in the task's candidate order (the task's candidate list, immutable, is
 * its key list), so the BLOB holds no names. A fit decided before schema 5 keeps its JSON text:
 * the readers take either (`typeof` tells them apart).
 */
import { LITTLE_ENDIAN } from './int32-blob'
import type { DecisionWhy } from './types'

/** The five figures of a gap decomposition, in their stored order. */
export const WHY_KEYS = ['round', 'k', 'qhat', 'bias', 'conc'] as const

/**
 * Where a page's BLOBs are written: views on large shared float64 chunks, so a row's four BLOBs
 * cost four views, not four arrays (a decide writes four million of them). SQLite copies a bound
 * BLOB, so a chunk only has to outlive the page's statements.
 */
export class Float64Arena {
  private chunk = new Float64Array(0)
  private at = 0

  /** `n` fresh floats at the arena's end, and their offset. */
  private take(n: number): number {
    if (this.at + n > this.chunk.length) {
      this.chunk = new Float64Array(Math.max(ARENA_CHUNK, n))
      this.at = 0
    }
    const start = this.at
    this.at += n
    return start
  }

  private bytes(start: number, n: number): Buffer {
    if (LITTLE_ENDIAN) return Buffer.from(this.chunk.buffer, start * 8, n * 8)
    const out = Buffer.alloc(n * 8)
    for (let i = 0; i < n; i++) out.writeDoubleLE(this.chunk[start + i], i * 8)
    return out
  }

  /** Numbers (null as NaN) → float64 LE bytes. */
  numbers(values: readonly (number | null)[]): Buffer {
    const start = this.take(values.length)
    for (let i = 0; i < values.length; i++) this.chunk[start + i] = values[i] ?? NaN
    return this.bytes(start, values.length)
  }

  /**
   * The posterior's values in candidate order, or null when its keys are not exactly the task's
   * candidates (the caller refuses the row: a posterior is over the task's candidates).
   */
  posterior(posterior: Record<string, number>, candidates: readonly string[]): Buffer | null {
    let keys = 0
    for (const _ in posterior) keys++
    if (keys !== candidates.length) return null
    const start = this.take(candidates.length)
    for (let g = 0; g < candidates.length; g++) {
      const p = posterior[candidates[g]]
      if (typeof p !== 'number' || !Object.prototype.hasOwnProperty.call(posterior, candidates[g])) return null
      this.chunk[start + g] = p
    }
    return this.bytes(start, candidates.length)
  }

  /** values[at + order[g]] for each g: a posterior put in its task's candidate order. */
  gather(values: Float64Array, at: number, order: Int32Array): Buffer {
    const start = this.take(order.length)
    for (let g = 0; g < order.length; g++) this.chunk[start + g] = values[at + order[g]]
    return this.bytes(start, order.length)
  }

  why(why: DecisionWhy): Buffer {
    const start = this.take(WHY_KEYS.length)
    for (let i = 0; i < WHY_KEYS.length; i++) this.chunk[start + i] = why[WHY_KEYS[i]]
    return this.bytes(start, WHY_KEYS.length)
  }
}

const ARENA_CHUNK = 1 << 16

/** The stored bytes of values[at … at + n): a view of them on a little-endian machine. */
export function bytesOf(values: Float64Array, at: number, n: number): Buffer {
  if (LITTLE_ENDIAN) return Buffer.from(values.buffer, values.byteOffset + at * 8, n * 8)
  const out = Buffer.alloc(n * 8)
  for (let i = 0; i < n; i++) out.writeDoubleLE(values[at + i], i * 8)
  return out
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

/** One list of numbers (null as NaN) → float64 LE bytes. */
export function numbersToBytes(values: readonly (number | null)[]): Buffer {
  return new Float64Arena().numbers(values)
}

/** Stored bytes → numbers (NaN as null). */
export function bytesToNumbers(b: Uint8Array): (number | null)[] {
  const f = bytesToFloat64(b)
  const out: (number | null)[] = new Array(f.length)
  for (let i = 0; i < f.length; i++) out[i] = Number.isNaN(f[i]) ? null : f[i]
  return out
}

export function bytesToPosterior(b: Uint8Array, candidates: readonly string[]): Record<string, number> {
  const f = bytesToFloat64(b)
  const out: Record<string, number> = {}
  for (let g = 0; g < candidates.length && g < f.length; g++) out[candidates[g]] = f[g]
  return out
}

/** The stored decomposition; null unless all five figures are there (a partial one would mislead). */
export function bytesToWhy(b: Uint8Array): DecisionWhy | null {
  const f = bytesToFloat64(b)
  if (f.length !== WHY_KEYS.length || f.some((x) => Number.isNaN(x))) return null
  return { round: f[0], k: f[1], qhat: f[2], bias: f[3], conc: f[4] }
}

/** A legacy JSON decomposition: the five figures if all are numbers, else null (as above). */
export function jsonToWhy(v: unknown): DecisionWhy | null {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return null
  const o = v as Record<string, unknown>
  for (const k of WHY_KEYS) if (typeof o[k] !== 'number') return null
  return { round: o.round as number, k: o.k as number, qhat: o.qhat as number, bias: o.bias as number, conc: o.conc as number }
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

/** A stored number-list column as either format gives it: a BLOB (schema 5) or JSON text (before). */
export type StoredNumbers = string | Uint8Array

export function readPosterior(v: StoredNumbers, candidates: readonly string[]): Record<string, number> {
  return typeof v === 'string' ? (JSON.parse(v) as Record<string, number>) : bytesToPosterior(v, candidates)
}

export function readNumbers(v: StoredNumbers | null): (number | null)[] | null {
  if (v === null) return null
  return typeof v === 'string' ? (JSON.parse(v) as (number | null)[]) : bytesToNumbers(v)
}

export function readWhy(v: StoredNumbers | null): DecisionWhy | null {
  if (v === null) return null
  return typeof v === 'string' ? jsonToWhy(JSON.parse(v)) : bytesToWhy(v)
}
