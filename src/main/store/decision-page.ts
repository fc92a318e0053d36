/**
 * A page of decisions in columns: what a decide hands the store, a page at a time. Why columns
 * and not an object per row: a million rows are made on the deciding thread and cross to the
 * writer thread; as objects (a row, its posterior, bound, k and why) each crossing was a
 * structured clone of five objects, as columns it is a few typed arrays moved without a copy and
 * three string lists. The number columns are already the float64 bytes SQLite stores
 * (decision-numbers.ts), so the writer binds views of them.
 *
 * Nulls among numbers are NaN (a stored number is finite, so NaN is unambiguous). A row's
 * posterior is given in the order of one of the page's candidate lists (a council's tasks share a
 * few), which the store checks against the task's own candidates.
 */
import { MAX_ID_LENGTH } from '../../shared/limits'
import { WHY_KEYS, WHY_N, WHY_STRIDE } from './decision-numbers'
import { StoreError, type DecisionPage, type DecisionWhy } from './contract'

// Read once: under some module transforms (tsx, vitest) an imported binding is a getter per access,
// and `add` runs for every decided task.
const KEYS = WHY_KEYS
const N_AT = WHY_N
const STRIDE = WHY_STRIDE

export const ACT = 1
export const SPOT = 2

/** The page's buffers, for a transfer to another thread (they are moved, not copied). */
export function pageBuffers(p: DecisionPage): ArrayBuffer[] {
  const arrays = [p.flags, p.stopRounds, p.gaps, p.disagreements, p.listOf, p.posteriors, p.posteriorAt, p.bounds, p.boundAt, p.boundLength, p.roundAnswers, p.peaks, p.ks, p.kAt, p.kLength, p.whys]
  return [...new Set(arrays.map((a) => a.buffer as ArrayBuffer))]
}

/** Builds a page row by row; `finish` returns it. */
export class DecisionPageBuilder {
  private n = 0
  private readonly taskIds: string[] = []
  private readonly answers: (string | null)[] = []
  private readonly reasons: (string | null)[] = []
  private readonly flags: Uint8Array
  private readonly stopRounds: Float64Array
  private readonly gaps: Float64Array
  private readonly disagreements: Float64Array
  private readonly peaks: Float64Array
  private readonly listOf: Int32Array
  private readonly posteriorAt: Int32Array
  private readonly boundAt: Int32Array
  private readonly boundLength: Int32Array
  private readonly kAt: Int32Array
  private readonly kLength: Int32Array
  private readonly whys: Float64Array
  private readonly lists: string[][] = []
  private readonly listIndex = new Map<readonly string[], number>()
  // Sized for a council of up to four candidates and four rounds; `room` grows them past that.
  private posteriors: Float64Array<ArrayBuffer>
  private bounds: Float64Array<ArrayBuffer>
  private roundAnswers: Int32Array<ArrayBuffer>
  private ks: Float64Array<ArrayBuffer>
  private np = 0
  private nb = 0
  private nk = 0

  constructor(private readonly capacity: number) {
    this.flags = new Uint8Array(capacity)
    this.stopRounds = new Float64Array(capacity)
    this.gaps = new Float64Array(capacity)
    this.disagreements = new Float64Array(capacity)
    this.peaks = new Float64Array(capacity)
    this.listOf = new Int32Array(capacity)
    this.posteriorAt = new Int32Array(capacity)
    this.boundAt = new Int32Array(capacity)
    this.boundLength = new Int32Array(capacity)
    this.kAt = new Int32Array(capacity)
    this.kLength = new Int32Array(capacity)
    this.whys = new Float64Array(capacity * WHY_STRIDE)
    this.posteriors = new Float64Array(4 * capacity + 8)
    this.bounds = new Float64Array(4 * capacity + 8)
    this.roundAnswers = new Int32Array(4 * capacity + 8)
    this.ks = new Float64Array(4 * capacity + 8)
  }

  /**
   * One row. `candidates` is the posterior's key list (the same array object for every task that
   * shares it), `posterior` its values in that order; null numbers as null.
   */
  add(row: {
    taskId: string; act: boolean; spotCheck: boolean; answer: string | null; reason: string | null
    stopRound: number | null; gap: number | null; disagreement: number | null
    candidates: readonly string[]; posterior: ArrayLike<number>
    bound: readonly (number | null)[] | null; k: ArrayLike<number | null> | null; why: DecisionWhy | null
    /** Ŷ_t per round (indices into `candidates`), one per bound entry; null with the bound. */
    roundAnswers?: ArrayLike<number> | null
    /** max_t L_t (the bound at the why's round), null when none. */
    peak?: number | null
  }): void {
    if (this.n >= this.capacity) throw new RangeError(`DecisionPageBuilder: more than ${this.capacity} rows`)
    const rounds = row.roundAnswers ?? null
    if (rounds !== null && rounds.length !== (row.bound?.length ?? -1)) throw new RangeError(`DecisionPageBuilder: ${rounds.length} round answers for ${row.bound?.length ?? 0} rounds of bounds`)
    const i = this.n++
    this.taskIds.push(row.taskId)
    this.answers.push(row.answer)
    this.reasons.push(row.reason)
    this.flags[i] = (row.act ? ACT : 0) | (row.spotCheck ? SPOT : 0)
    this.stopRounds[i] = row.stopRound ?? NaN
    this.gaps[i] = row.gap ?? NaN
    this.disagreements[i] = row.disagreement ?? NaN
    this.peaks[i] = row.peak ?? NaN
    let list = this.listIndex.get(row.candidates)
    if (list === undefined) {
      list = this.lists.length
      this.lists.push([...row.candidates])
      this.listIndex.set(row.candidates, list)
    }
    this.listOf[i] = list
    const K = row.candidates.length
    this.posteriors = room(this.posteriors, this.np + K)
    this.posteriorAt[i] = this.np
    for (let g = 0; g < K; g++) this.posteriors[this.np++] = row.posterior[g]
    this.boundAt[i] = this.nb
    this.boundLength[i] = row.bound === null ? -1 : row.bound.length
    if (row.bound !== null) {
      const answers = row.roundAnswers ?? null
      this.bounds = room(this.bounds, this.nb + row.bound.length)
      this.roundAnswers = room(this.roundAnswers, this.nb + row.bound.length)
      for (let r = 0; r < row.bound.length; r++) {
        this.roundAnswers[this.nb] = answers === null ? -1 : answers[r]
        this.bounds[this.nb++] = row.bound[r] ?? NaN
      }
    }
    this.kAt[i] = this.nk
    this.kLength[i] = row.k === null ? -1 : row.k.length
    if (row.k !== null) {
      this.ks = room(this.ks, this.nk + row.k.length)
      for (let j = 0; j < row.k.length; j++) this.ks[this.nk++] = row.k[j] ?? NaN
    }
    const w = i * STRIDE
    for (let j = 0; j < KEYS.length; j++) this.whys[w + j] = row.why === null ? NaN : row.why[KEYS[j]]
    this.whys[w + N_AT] = row.why?.n ?? NaN
  }

  finish(): DecisionPage {
    const n = this.n
    return {
      taskIds: this.taskIds, answers: this.answers, reasons: this.reasons, lists: this.lists,
      flags: this.flags.slice(0, n), stopRounds: this.stopRounds.slice(0, n), gaps: this.gaps.slice(0, n),
      disagreements: this.disagreements.slice(0, n), listOf: this.listOf.slice(0, n),
      posteriors: this.posteriors.slice(0, this.np), posteriorAt: this.posteriorAt.slice(0, n),
      bounds: this.bounds.slice(0, this.nb), boundAt: this.boundAt.slice(0, n), boundLength: this.boundLength.slice(0, n),
      roundAnswers: this.roundAnswers.slice(0, this.nb), peaks: this.peaks.slice(0, n),
      ks: this.ks.slice(0, this.nk), kAt: this.kAt.slice(0, n), kLength: this.kLength.slice(0, n),
      whys: this.whys.slice(0, n * WHY_STRIDE)
    }
  }
}

/** `a`, or a copy of it at least `need` long (doubling): the page's variable-length columns grow by it. */
function room<A extends Float64Array<ArrayBuffer> | Int32Array<ArrayBuffer>>(a: A, need: number): A {
  if (need <= a.length) return a
  const b = new (a.constructor as new (n: number) => A)(Math.max(need, a.length * 2))
  b.set(a)
  return b
}

/**
 * The store's check of a page (both backends run it before writing): shapes, ids, no task twice,
 * numbers finite where given (NaN = null), whole decompositions. Returns the act and spot counts.
 */
export function checkDecisionPage(p: DecisionPage): { acted: number; spot: number } {
  const bad = (what: string): never => {
    throw new StoreError('bad_input', `decision page: ${what}`)
  }
  if (p === null || typeof p !== 'object' || !Array.isArray(p.taskIds)) bad('not a page of decisions')
  const n = p.taskIds.length
  const sized: [string, ArrayLike<unknown>, number][] = [
    ['flags', p.flags, n], ['stopRounds', p.stopRounds, n], ['gaps', p.gaps, n], ['disagreements', p.disagreements, n],
    ['listOf', p.listOf, n], ['posteriorAt', p.posteriorAt, n], ['boundAt', p.boundAt, n], ['boundLength', p.boundLength, n], ['peaks', p.peaks, n],
    ['roundAnswers', p.roundAnswers, p.bounds?.length ?? 0],
    ['kAt', p.kAt, n], ['kLength', p.kLength, n], ['whys', p.whys, n * WHY_STRIDE], ['answers', p.answers, n], ['reasons', p.reasons, n]
  ]
  for (const [name, a, length] of sized) if (a === null || a === undefined || a.length !== length) bad(`${name} must have ${length} entries`)
  if (!Array.isArray(p.lists) || !p.lists.every((l) => Array.isArray(l) && l.every((c) => typeof c === 'string'))) bad('lists must be lists of candidate names')
  const seen = new Set<string>()
  let acted = 0
  let spot = 0
  for (let i = 0; i < n; i++) {
    const id = p.taskIds[i]
    const row = `row ${i} (task ${String(id)})`
    if (typeof id !== 'string' || id.length === 0 || id.length > MAX_ID_LENGTH) bad(`${row}: the task id must be a string of 1 to ${MAX_ID_LENGTH} characters`)
    if (seen.has(id)) throw new StoreError('bad_input', `task ${id} appears twice in the decisions`)
    seen.add(id)
    if (p.flags[i] > (ACT | SPOT)) bad(`${row}: unknown flags ${p.flags[i]}`)
    if (p.flags[i] & ACT) acted++
    if (p.flags[i] & SPOT) spot++
    const a = p.answers[i]
    const r = p.reasons[i]
    if (!(a === null || typeof a === 'string')) bad(`${row}: the answer must be a string or null`)
    if (!(r === null || typeof r === 'string')) bad(`${row}: the reason must be a string or null`)
    const s = p.stopRounds[i]
    if (!(Number.isNaN(s) || (Number.isSafeInteger(s) && s >= 0))) bad(`${row}: stopRound must be a whole number ≥ 0 or null`)
    if (!finiteOrNaN(p.gaps[i]) || !finiteOrNaN(p.disagreements[i])) bad(`${row}: gap and disagreement must be finite numbers or null`)
    const list = p.lists[p.listOf[i]]
    if (list === undefined) bad(`${row}: no candidate list ${p.listOf[i]}`)
    if (!inside(p.posteriors, p.posteriorAt[i], list.length)) bad(`${row}: its posterior lies outside the page`)
    for (let g = 0; g < list.length; g++) if (!Number.isFinite(p.posteriors[p.posteriorAt[i] + g])) bad(`${row}: the posterior must be finite numbers`)
    checkList(p.bounds, p.boundAt[i], p.boundLength[i], `${row}: bound`, bad)
    for (let r = 0; r < p.boundLength[i]; r++) {
      const a = p.roundAnswers[p.boundAt[i] + r]
      if (!(a === -1 || (Number.isInteger(a) && a >= 0 && a < list.length))) bad(`${row}: round ${r}'s answer ${a} is not one of its ${list.length} candidates`)
    }
    if (!Number.isNaN(p.peaks[i]) && !p.bounds.subarray(p.boundAt[i], p.boundAt[i] + Math.max(0, p.boundLength[i])).includes(p.peaks[i])) {
      bad(`${row}: peak must be null or one of its bounds`)
    }
    checkList(p.ks, p.kAt[i], p.kLength[i], `${row}: k`, bad)
    const w = i * WHY_STRIDE
    const none = Number.isNaN(p.whys[w])
    for (let j = 0; j < WHY_KEYS.length; j++) {
      const x = p.whys[w + j]
      if (none ? !Number.isNaN(x) : !Number.isFinite(x)) bad(`${row}: why must be null or { ${WHY_KEYS.join(', ')}[, n] }, each a finite number`)
    }
    const n = p.whys[w + WHY_N]
    if (none ? !Number.isNaN(n) : !(Number.isNaN(n) || (Number.isSafeInteger(n) && n >= 0))) bad(`${row}: why.n must be a whole number ≥ 0 when given`)
  }
  return { acted, spot }
}

const finiteOrNaN = (x: number): boolean => Number.isNaN(x) || Number.isFinite(x)

function inside(values: Float64Array, at: number, length: number): boolean {
  return Number.isInteger(at) && at >= 0 && at + length <= values.length
}

function checkList(values: Float64Array, at: number, length: number, what: string, bad: (m: string) => never): void {
  if (length === -1) return
  if (!(Number.isInteger(length) && length >= 0) || !inside(values, at, length)) bad(`${what} lies outside the page`)
  for (let j = 0; j < length; j++) if (!finiteOrNaN(values[at + j])) bad(`${what} must be finite numbers or nulls`)
}

/**
 * Row i's answers per round as the JSON list `round_answers` stores (null unless every round has
 * one). A council's rows repeat a few patterns, so each text is made once per page.
 */
export function roundAnswerTexts(page: DecisionPage): (i: number) => string | null {
  const made = new Map<string, string | null>()
  return (i) => {
    const n = page.boundLength[i]
    if (n <= 0) return null
    const at = page.boundAt[i]
    let key = `${page.listOf[i]}`
    for (let r = 0; r < n; r++) key += `,${page.roundAnswers[at + r]}`
    let text = made.get(key)
    if (text === undefined) {
      const list = page.lists[page.listOf[i]]
      const names: string[] = []
      for (let r = 0; r < n; r++) names.push(list[page.roundAnswers[at + r]])
      text = names.every((x) => x !== undefined) ? JSON.stringify(names) : null
      made.set(key, text)
    }
    return text
  }
}
