/**
 * A fit's what-if figures: what `budgetWhatIf` (ops/what-if.ts) answers at ANY threshold θ,
 * worked out once from the fit's stored bounds, so that a what-if reads one stored chunk and
 * binary-searches it instead of walking the rows.
 *
 * A row's part in the answer at θ depends only on its first crossing, the first round t with
 * L_t ≥ θ. As θ falls the crossing moves to an earlier round only at a new running maximum of the
 * bounds (a record): with the records v_1 < … < v_k at rounds r_1 < … < r_k, the row acts for
 * θ ≤ v_k, and for v_{j−1} < θ ≤ v_j it stops at r_j with the term c_j (1 − q̂ when r_j is its best
 * round, else 1 − v_j, a bounded term). Record j carries c_j − c_{j+1} (c_{k+1} = 0), its part of
 * the acted count (1 at the top record) and of the bounded terms, so that the sum over a row's
 * records with v ≥ θ telescopes to the row's own answer at θ. Every row's records, sorted by v
 * from the largest (equal v merged: a query takes all of them or none) and summed as prefixes: the
 * answer at θ is the prefix up to the last entry with v ≥ θ.
 *
 * An entry is five float64: v, the expected wrong actions (a compensated running sum, each term
 * added as the scan adds it: exact to rounding), the largest stored gap among the rows that act
 * at θ = v (+∞ for a row with bounds but no gap: the gap index would not find it), the acted count
 * and the bounded terms. The largest gap tells when a what-if narrowed by `gapAtMost` would leave
 * out a row that acts, so the narrowed answer stays exactly the scan's.
 */
import { StoreError, type WhatIfChunk, type WhatIfFigures } from './contract'
import { readNumbers, readWhy, WHY_KEYS, type StoredNumbers } from './decision-numbers'

/** Float64 figures per entry, in this order. */
export const ENTRY = 5
const V = 0
const SUM = 1
const GAP = 2
const ACTED = 3
const BOUNDED = 4

/** Entries per stored chunk: a what-if reads one chunk (≤ 80 KB). */
export const CHUNK_ENTRIES = 2048

/** One row's answer at a threshold (what the scan adds up). */
export type RowPart = { acted: number; term: number; bounded: number }

/** What-if figures answered at a threshold: the counts and the sum over every row with bounds. */
export type WhatIfPoint = { acted: number; expectedWrong: number; boundedTerms: number; maxGap: number }

const WHY_ROUND = WHY_KEYS.indexOf('round')
const WHY_QHAT = WHY_KEYS.indexOf('qhat')

/**
 * The first round whose bound reaches the threshold, and that bound, or null — the engine's own
 * comparison (`L_t ≥ 1 − α`, certificate/decide.ts), so a what-if at the fit's own threshold acts
 * on exactly the tasks the fit acted on. Read in place from the stored bytes (no array per row).
 */
export function firstCrossing(v: StoredNumbers, threshold: number): { round: number; bound: number } | null {
  if (typeof v === 'string') {
    const list = readNumbers(v) ?? []
    for (let t = 0; t < list.length; t++) {
      const x = list[t]
      if (x !== null && x >= threshold) return { round: t, bound: x }
    }
    return null
  }
  const view = new DataView(v.buffer, v.byteOffset, v.byteLength)
  const n = v.byteLength >> 3
  for (let t = 0; t < n; t++) {
    const x = view.getFloat64(t * 8, true) // stored little-endian; NaN (null) never reaches it
    if (x >= threshold) return { round: t, bound: x }
  }
  return null
}

export function bestRoundQhat(v: StoredNumbers | null): { round: number; qhat: number } | null {
  if (v === null) return null
  if (typeof v === 'string') {
    const why = readWhy(v)
    return why === null ? null : { round: why.round, qhat: why.qhat }
  }
  if (v.byteLength < WHY_KEYS.length * 8) return null
  const view = new DataView(v.buffer, v.byteOffset, v.byteLength)
  const round = view.getFloat64(WHY_ROUND * 8, true)
  const qhat = view.getFloat64(WHY_QHAT * 8, true)
  return Number.isFinite(round) && Number.isFinite(qhat) ? { round, qhat } : null
}

/** A row's term when it stops at `round` with bound `bound`: 1 − q̂ at its best round, else 1 − L (bounded). */
function termAt(best: { round: number; qhat: number } | null, round: number, bound: number): { term: number; bounded: number } {
  return best !== null && best.round === round ? { term: 1 - best.qhat, bounded: 0 } : { term: 1 - bound, bounded: 1 }
}

/** One row's part in the answer at `threshold`: what the scan adds for it. */
export function rowPart(bound: StoredNumbers, why: StoredNumbers | null, threshold: number): RowPart | null {
  const stop = firstCrossing(bound, threshold)
  if (stop === null) return null
  const { term, bounded } = termAt(bestRoundQhat(why), stop.round, stop.bound)
  return { acted: 1, term, bounded }
}

/** Neumaier's compensated sum: the figure does not depend on the order the terms come in. */
export class CompensatedSum {
  private sum = 0
  private carry = 0
  add(x: number): void {
    const next = this.sum + x
    this.carry += Math.abs(this.sum) >= Math.abs(x) ? this.sum - next + x : x - next + this.sum
    this.sum = next
  }
  value(): number {
    return this.sum + this.carry
  }
  parts(): [number, number] {
    return [this.sum, this.carry]
  }
}

/** Grows a typed array to hold at least `n`. */
function grown<T extends Float64Array | Int8Array | Uint8Array>(a: T, n: number, make: (size: number) => T): T {
  if (n <= a.length) return a
  const b = make(Math.max(n, a.length * 2))
  b.set(a)
  return b
}

/** Collects a fit's rows (`add`, in any order) and makes their figures (`finish`). */
export class WhatIfBuilder {
  private n = 0
  private v = new Float64Array(1024)
  private plus = new Float64Array(1024)
  private minus = new Float64Array(1024)
  private gap = new Float64Array(1024)
  private acted = new Uint8Array(1024)
  private bounded = new Int8Array(1024)
  private readonly values: number[] = []
  private readonly rounds: number[] = []

  /** A decision row: its stored bound list (null: it never acts), decomposition and gap. */
  add(bound: StoredNumbers | null, why: StoredNumbers | null, gap: number | null): void {
    if (bound === null) return
    const values = this.values
    const rounds = this.rounds
    values.length = 0
    rounds.length = 0
    let top = -Infinity
    const record = (t: number, x: number | null): void => {
      // NaN (null) is never a record: the scan's `x ≥ θ` never holds for it either.
      if (x !== null && x > top) {
        top = x
        values.push(x)
        rounds.push(t)
      }
    }
    if (typeof bound === 'string') (readNumbers(bound) ?? []).forEach((x, t) => record(t, x))
    else {
      const view = new DataView(bound.buffer, bound.byteOffset, bound.byteLength)
      for (let t = 0; t < bound.byteLength >> 3; t++) record(t, view.getFloat64(t * 8, true))
    }
    const k = values.length
    if (k === 0) return
    const best = bestRoundQhat(why)
    this.room(this.n + k)
    let next = { term: 0, bounded: 0 }
    for (let j = k - 1; j >= 0; j--) {
      const here = termAt(best, rounds[j], values[j])
      const i = this.n++
      this.v[i] = values[j]
      this.plus[i] = here.term
      this.minus[i] = next.term
      this.bounded[i] = here.bounded - next.bounded
      this.acted[i] = j === k - 1 ? 1 : 0
      this.gap[i] = j === k - 1 ? (gap === null ? Infinity : gap) : -Infinity
      next = here
    }
  }

  private room(n: number): void {
    this.v = grown(this.v, n, (s) => new Float64Array(s))
    this.plus = grown(this.plus, n, (s) => new Float64Array(s))
    this.minus = grown(this.minus, n, (s) => new Float64Array(s))
    this.gap = grown(this.gap, n, (s) => new Float64Array(s))
    this.acted = grown(this.acted, n, (s) => new Uint8Array(s))
    this.bounded = grown(this.bounded, n, (s) => new Int8Array(s))
  }

  finish(): WhatIfFigures {
    const n = this.n
    // One native sort of the values; the records then find their distinct value by binary search.
    const sorted = this.v.slice(0, n).sort()
    let m = 0
    for (let i = 0; i < n; i++) if (m === 0 || sorted[i] !== sorted[m - 1]) sorted[m++] = sorted[i]
    const distinct = sorted.subarray(0, m)
    const acted = new Int32Array(m)
    const bounded = new Int32Array(m)
    const hi = new Float64Array(m)
    const lo = new Float64Array(m)
    const gap = new Float64Array(m).fill(-Infinity)
    for (let i = 0; i < n; i++) {
      const at = lowerBound(distinct, this.v[i])
      acted[at] += this.acted[i]
      bounded[at] += this.bounded[i]
      if (this.gap[i] > gap[at]) gap[at] = this.gap[i]
      // The term, then minus the next record's term, each added as the scan adds it.
      addTo(hi, lo, at, this.plus[i])
      addTo(hi, lo, at, -this.minus[i])
    }
    const chunks: WhatIfChunk[] = []
    const sum = new CompensatedSum()
    let runActed = 0
    let runBounded = 0
    let runGap = -Infinity
    for (let c = 0; c * CHUNK_ENTRIES < m; c++) {
      const size = Math.min(CHUNK_ENTRIES, m - c * CHUNK_ENTRIES)
      const out = new Float64Array(size * ENTRY)
      for (let e = 0; e < size; e++) {
        const at = m - 1 - (c * CHUNK_ENTRIES + e)
        sum.add(hi[at])
        sum.add(lo[at])
        runActed += acted[at]
        runBounded += bounded[at]
        if (gap[at] > runGap) runGap = gap[at]
        out[e * ENTRY + V] = distinct[at]
        out[e * ENTRY + SUM] = sum.value()
        out[e * ENTRY + GAP] = runGap
        out[e * ENTRY + ACTED] = runActed
        out[e * ENTRY + BOUNDED] = runBounded
      }
      chunks.push({ top: out[V], bytes: littleEndianBytes(out) })
    }
    return { entries: m, chunks }
  }
}

/** Neumaier's step on the running sum hi[at] + lo[at]. */
function addTo(hi: Float64Array, lo: Float64Array, at: number, x: number): void {
  const s = hi[at]
  const next = s + x
  lo[at] += Math.abs(s) >= Math.abs(x) ? s - next + x : x - next + s
  hi[at] = next
}

/** The first index of `sorted` (ascending) holding a value ≥ x. */
function lowerBound(sorted: Float64Array, x: number): number {
  let lo = 0
  let hi = sorted.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (sorted[mid] < x) lo = mid + 1
    else hi = mid
  }
  return lo
}

function littleEndianBytes(f: Float64Array): Uint8Array {
  const out = new Uint8Array(f.length * 8)
  const view = new DataView(out.buffer)
  for (let i = 0; i < f.length; i++) view.setFloat64(i * 8, f[i], true)
  return out
}

/** A stored chunk's entries (a copy: the driver's bytes may start at any offset). */
function entriesOf(bytes: Uint8Array): Float64Array {
  const out = new Float64Array(bytes.byteLength >> 3)
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  for (let i = 0; i < out.length; i++) out[i] = view.getFloat64(i * 8, true)
  return out
}

/**
 * The figures at `threshold` from the chunk holding the last entry with v ≥ threshold (the stored
 * chunk with the smallest top ≥ threshold); null for no such chunk (nothing acts). Null too when
 * the chunk does not start at or above the threshold: the caller reads the rows instead.
 */
export function pointAt(bytes: Uint8Array | null, threshold: number): WhatIfPoint | null {
  if (bytes === null) return { acted: 0, expectedWrong: 0, boundedTerms: 0, maxGap: -Infinity }
  const f = entriesOf(bytes)
  const n = Math.floor(f.length / ENTRY)
  if (n === 0 || !(f[V] >= threshold)) return null
  // The last entry with v ≥ threshold (v falls from entry to entry).
  let lo = 0
  let hi = n - 1
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1
    if (f[mid * ENTRY + V] >= threshold) lo = mid
    else hi = mid - 1
  }
  const e = lo * ENTRY
  return { acted: f[e + ACTED], expectedWrong: f[e + SUM], boundedTerms: f[e + BOUNDED], maxGap: f[e + GAP] }
}

/**
 * Refuses figures that are not what WhatIfBuilder makes: chunks of whole entries, v finite and
 * falling strictly across them, each chunk's top its first v, counts whole and not negative.
 */
export function checkWhatIfFigures(figures: WhatIfFigures): WhatIfFigures {
  const bad = (message: string): StoreError => new StoreError('bad_input', `what-if figures: ${message}`, { field: 'figures' })
  if (figures === null || typeof figures !== 'object' || !Array.isArray(figures.chunks)) throw bad('expected { entries, chunks }')
  if (!Number.isSafeInteger(figures.entries) || figures.entries < 0) throw bad('entries must be a whole number ≥ 0')
  let count = 0
  let previous = Infinity
  for (const [c, chunk] of figures.chunks.entries()) {
    if (chunk === null || typeof chunk !== 'object' || !(chunk.bytes instanceof Uint8Array)) throw bad(`chunk ${c} has no bytes`)
    const size = chunk.bytes.byteLength / (ENTRY * 8)
    if (!Number.isInteger(size) || size < 1 || size > CHUNK_ENTRIES) throw bad(`chunk ${c} does not hold 1 to ${CHUNK_ENTRIES} whole entries`)
    if (c < figures.chunks.length - 1 && size !== CHUNK_ENTRIES) throw bad(`chunk ${c} is short but not the last`)
    const f = entriesOf(chunk.bytes)
    if (chunk.top !== f[V]) throw bad(`chunk ${c}'s top is not its first entry`)
    for (let e = 0; e < size; e++) {
      const v = f[e * ENTRY + V]
      if (!Number.isFinite(v) || !(v < previous)) throw bad(`entry ${count + e} is not finite and below the one before`)
      previous = v
      const acted = f[e * ENTRY + ACTED]
      const boundedTerms = f[e * ENTRY + BOUNDED]
      if (!Number.isSafeInteger(acted) || acted < 0 || !Number.isSafeInteger(boundedTerms) || boundedTerms < 0 || boundedTerms > acted) {
        throw bad(`entry ${count + e}'s counts are not whole numbers with 0 ≤ bounded ≤ acted`)
      }
      if (!Number.isFinite(f[e * ENTRY + SUM]) || Number.isNaN(f[e * ENTRY + GAP])) throw bad(`entry ${count + e}'s sum or gap is not a number`)
    }
    count += size
  }
  if (count !== figures.entries) throw bad(`the chunks hold ${count} entries, not ${figures.entries}`)
  return figures
}
