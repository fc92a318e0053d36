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
 * An entry is six float64: v, the expected wrong actions (a compensated running sum, each term
 * added as the scan adds it: exact to rounding), the largest stored gap among the rows that act
 * at θ = v (+∞ for a row with bounds but no gap: the gap index would not find it), the smallest
 * stored peak among them (−∞ for none: a re-decide's copy works its gaps out from it), the acted
 * count and the bounded terms. The largest gap tells when a what-if narrowed by `gapAtMost` would
 * leave out a row that acts, so the narrowed answer stays exactly the scan's.
 */
import { StoreError, type DecisionPage, type WhatIfChunk, type WhatIfFigures } from './contract'
import { LITTLE_ENDIAN } from './int32-blob'
import { readNumbers, readWhy, WHY_KEYS, WHY_STRIDE, type StoredNumbers } from './decision-numbers'

/** Float64 figures per entry, in this order. */
export const ENTRY = 6
const V = 0
const SUM = 1
const GAP = 2
const PEAK = 3
const ACTED = 4
const BOUNDED = 5

/** Entries per stored chunk: a what-if reads one chunk (≤ 96 KB). */
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

/** One row's part in the answer at `threshold`: what the scan adds for it. */
export function rowPart(bound: StoredNumbers, why: StoredNumbers | null, threshold: number): RowPart | null {
  const stop = firstCrossing(bound, threshold)
  if (stop === null) return null
  const best = bestRoundQhat(why)
  return best !== null && best.round === stop.round ? { acted: 1, term: 1 - best.qhat, bounded: 0 } : { acted: 1, term: 1 - stop.bound, bounded: 1 }
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
  // × 1.5, not × 2: at a million tasks the slack is tens of megabytes.
  const b = make(Math.max(n, Math.ceil(a.length * 1.5)))
  b.set(a)
  return b
}

/** Collects a fit's rows (any order: a page at a time, or read back) and makes their figures (`finish`). */
export class WhatIfBuilder {
  // Per record: its value, its term, whether it is its row's top (first of the row's records,
  // which follow from the top down, so a record's c_{j+1} is the term of the record before it) and
  // its change in bounded terms. Per row with a record: its gap and peak. 18 bytes a record and 16
  // a row: a decide at a million tasks holds them beside its pages.
  private n = 0
  private rows = 0
  private v = new Float64Array(1024)
  private term = new Float64Array(1024)
  private top = new Uint8Array(1024)
  private bounded = new Int8Array(1024)
  private gap = new Float64Array(1024)
  private peak = new Float64Array(1024)
  // One row's records, reused: (value, round) of each new running maximum.
  private recV = new Float64Array(16)
  private recT = new Int32Array(16)

  /** A decide's page, read before it is handed on (a page's buffers may move to the writer thread). */
  addPage(page: DecisionPage): void {
    for (let i = 0; i < page.taskIds.length; i++) {
      if (page.boundLength[i] < 0) continue
      const w = i * WHY_STRIDE
      const round = page.whys[w + WHY_ROUND]
      const qhat = page.whys[w + WHY_QHAT]
      const known = Number.isFinite(round) && Number.isFinite(qhat)
      this.addRow(page.bounds, page.boundAt[i], page.boundLength[i], known ? round : NaN, known ? qhat : NaN, page.gaps[i], page.peaks[i])
    }
  }

  /** A stored decision row: its bound list (null: it never acts), decomposition, gap and peak. */
  add(bound: StoredNumbers | null, why: StoredNumbers | null, gap: number | null, peak: number | null): void {
    if (bound === null) return
    const list = Float64Array.from(readNumbers(bound) ?? [], (x) => (x === null ? NaN : x))
    const best = bestRoundQhat(why)
    this.addRow(list, 0, list.length, best === null ? NaN : best.round, best === null ? NaN : best.qhat, gap ?? NaN, peak ?? NaN)
  }

  /**
   * bounds[at … at + length) (NaN: null); the best round and q̂ (NaN: no decomposition); the gap and
   * the peak (NaN: null).
   */
  private addRow(bounds: Float64Array, at: number, length: number, bestRound: number, qhat: number, gap: number, peak: number): void {
    if (this.recV.length < length) {
      this.recV = new Float64Array(length)
      this.recT = new Int32Array(length)
    }
    let k = 0
    let top = -Infinity
    for (let t = 0; t < length; t++) {
      const x = bounds[at + t]
      // NaN (null) is never a record: the scan's `x ≥ θ` never holds for it either.
      if (x > top) {
        top = x
        this.recV[k] = x
        this.recT[k++] = t
      }
    }
    if (k === 0) return
    this.room(this.n + k, this.rows + 1)
    // A row without a gap is one the gap index would not find (+∞); without a peak, one whose
    // re-decided gap is null (−∞ here, +∞ there).
    this.gap[this.rows] = Number.isNaN(gap) ? Infinity : gap
    this.peak[this.rows++] = Number.isNaN(peak) ? -Infinity : peak
    let nextBounded = 0
    for (let j = k - 1; j >= 0; j--) {
      // The scan's term when the row stops at this record's round.
      const atBest = this.recT[j] === bestRound
      const bounded = atBest ? 0 : 1
      const i = this.n++
      this.v[i] = this.recV[j]
      this.term[i] = atBest ? 1 - qhat : 1 - this.recV[j]
      this.top[i] = j === k - 1 ? 1 : 0
      this.bounded[i] = bounded - nextBounded
      nextBounded = bounded
    }
  }

  private room(records: number, rows: number): void {
    if (records > this.v.length) {
      this.v = grown(this.v, records, (s) => new Float64Array(s))
      this.term = grown(this.term, records, (s) => new Float64Array(s))
      this.top = grown(this.top, records, (s) => new Uint8Array(s))
      this.bounded = grown(this.bounded, records, (s) => new Int8Array(s))
    }
    if (rows > this.gap.length) {
      this.gap = grown(this.gap, rows, (s) => new Float64Array(s))
      this.peak = grown(this.peak, rows, (s) => new Float64Array(s))
    }
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
    const peak = new Float64Array(m).fill(Infinity)
    for (let i = 0, row = -1; i < n; i++) {
      const at = lowerBound(distinct, this.v[i])
      bounded[at] += this.bounded[i]
      // The term, then minus the next record's term (the record before, in the same row), each added as the scan adds it.
      addTo(hi, lo, at, this.term[i])
      if (this.top[i] === 1) {
        row++
        acted[at]++
        if (this.gap[row] > gap[at]) gap[at] = this.gap[row]
        if (this.peak[row] < peak[at]) peak[at] = this.peak[row]
      } else addTo(hi, lo, at, -this.term[i - 1])
    }
    const chunks: WhatIfChunk[] = []
    const sum = new CompensatedSum()
    let runActed = 0
    let runBounded = 0
    let runGap = -Infinity
    let runPeak = Infinity
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
        if (peak[at] < runPeak) runPeak = peak[at]
        out[e * ENTRY + V] = distinct[at]
        out[e * ENTRY + SUM] = sum.value()
        out[e * ENTRY + GAP] = runGap
        out[e * ENTRY + PEAK] = runPeak
        out[e * ENTRY + ACTED] = runActed
        out[e * ENTRY + BOUNDED] = runBounded
      }
      chunks.push({ top: out[V], bytes: littleEndianBytes(out) })
    }
    return { entries: m, chunks }
  }
}

/**
 * The figures of a re-decide's copy of its parent's rows (docs/engine.md §8, Budget): the same
 * bounds and decompositions, so the same entries, and each row's gap θ − peak (null without a
 * peak), so the largest gap among the rows at or above an entry is θ − the smallest peak there.
 */
export function redecidedFigures(parent: WhatIfFigures, threshold: number): WhatIfFigures {
  return {
    entries: parent.entries,
    chunks: parent.chunks.map((c) => {
      const f = entriesOf(c.bytes)
      for (let e = 0; e < f.length; e += ENTRY) f[e + GAP] = f[e + PEAK] === -Infinity ? Infinity : f[e + PEAK] === Infinity ? -Infinity : threshold - f[e + PEAK]
      return { top: c.top, bytes: littleEndianBytes(f) }
    })
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
  if (LITTLE_ENDIAN) return new Uint8Array(f.buffer, f.byteOffset, f.byteLength)
  const out = new Uint8Array(f.length * 8)
  const view = new DataView(out.buffer)
  for (let i = 0; i < f.length; i++) view.setFloat64(i * 8, f[i], true)
  return out
}

/** A stored chunk's entries (a copy: the driver's bytes may start at any offset). */
function entriesOf(bytes: Uint8Array): Float64Array {
  const out = new Float64Array(bytes.byteLength >> 3)
  if (LITTLE_ENDIAN) {
    new Uint8Array(out.buffer).set(bytes.subarray(0, out.length * 8))
    return out
  }
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
      if (!Number.isFinite(f[e * ENTRY + SUM]) || Number.isNaN(f[e * ENTRY + GAP]) || Number.isNaN(f[e * ENTRY + PEAK])) throw bad(`entry ${count + e}'s sum, gap or peak is not a number`)
    }
    count += size
  }
  if (count !== figures.entries) throw bad(`the chunks hold ${count} entries, not ${figures.entries}`)
  return figures
}
