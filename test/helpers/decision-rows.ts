/**
 * Decision rows, for tests: a fit's decisions as one object per task (what the store's contract
 * took before it took pages), each row checked with its own messages, and the page a decide
 * would write made of them (`pageOfRows`) or read back (`rowsOfPage`). The store itself checks
 * pages only (src/main/store/decision-page.ts `checkDecisionPage`).
 */
import { MAX_ID_LENGTH } from '../../src/shared/limits'
import { DECISION_KINDS, StoreError, type DecisionKind, type DecisionPage, type DecisionWhy } from '../../src/main/store/contract'
import { ACT, DecisionPageBuilder, SPOT } from '../../src/main/store/decision-page'
import { WHY_KEYS, WHY_N, WHY_STRIDE } from '../../src/main/store/decision-numbers'
import { twice } from '../../src/main/store/decision-check'
import { checkId, checkInt, checkJson, checkJsonObject, checkNullableFinite, checkNullableString, checkOneOf } from '../../src/main/store/validate'

export type DecisionInput = {
  taskId: string
  decision: DecisionKind
  spotCheck: boolean
  /** The acted answer, or the engine's best guess while deferred; a candidate or null. */
  answer: string | null
  posterior: Record<string, number>
  stopRound: number | null
  gap: number | null
  bound: (number | null)[] | null
  disagreement: number | null
  /** The k behind each L_t (certificate, docs/engine.md §8.9). */
  k?: (number | null)[] | null
  /** The gap decomposition at the best round (finite numbers). */
  why?: DecisionWhy | null
  /** Why the task was deferred without its bound deciding (e.g. "insufficient evidence"). */
  reason?: string | null
}

const finiteOrNull = (v: unknown): boolean => v === null || v === undefined || (typeof v === 'number' && Number.isFinite(v))
const stringOrNull = (v: unknown): boolean => v === null || v === undefined || typeof v === 'string'
const plainObject = (v: unknown): boolean => v !== null && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype
const numbersOrNull = (v: unknown): boolean => {
  if (v === null || v === undefined) return true
  if (!Array.isArray(v)) return false
  for (let i = 0; i < v.length; i++) if (!(v[i] === null || (typeof v[i] === 'number' && Number.isFinite(v[i])))) return false
  return true
}
const numberRecord = (v: unknown): boolean => {
  if (!plainObject(v)) return false
  for (const k in v as Record<string, unknown>) if (!(typeof (v as Record<string, unknown>)[k] === 'number' && Number.isFinite((v as Record<string, number>)[k]))) return false
  return true
}

/** null, or exactly the five figures of a gap decomposition, each a finite number, and maybe `n` (a whole number ≥ 0). */
const whyOrNull = (v: unknown): boolean => {
  if (v === null || v === undefined) return true
  if (!plainObject(v)) return false
  const r = v as Record<string, unknown>
  let keys = 0
  for (const _ in r) keys++
  const hasN = r.n !== undefined
  if (keys !== WHY_KEYS.length + (hasN ? 1 : 0)) return false
  if (hasN && !(Number.isSafeInteger(r.n) && (r.n as number) >= 0)) return false
  for (const k of WHY_KEYS) if (!(typeof r[k] === 'number' && Number.isFinite(r[k]))) return false
  return true
}

/**
 * Whether a row passes every check of `describeProblem` — tested first, allocating nothing, since
 * a decide checks a million rows; only a row that fails it is described (and refused).
 */
function validDecision(d: DecisionInput): boolean {
  return (
    typeof d.taskId === 'string' && d.taskId.length > 0 && d.taskId.length <= MAX_ID_LENGTH &&
    (d.decision === 'act' || d.decision === 'defer') && typeof d.spotCheck === 'boolean' && stringOrNull(d.answer) &&
    numberRecord(d.posterior) && (d.stopRound === null || (Number.isSafeInteger(d.stopRound) && d.stopRound >= 0)) &&
    finiteOrNull(d.gap) && numbersOrNull(d.bound) && numbersOrNull(d.k) &&
    whyOrNull(d.why) &&
    stringOrNull(d.reason) && finiteOrNull(d.disagreement)
  )
}

export function checkDecision(d: DecisionInput, i: number): void {
  if (validDecision(d)) return
  describeProblem(d, i)
}

/** Throws the first problem of row `i`, naming its field. */
function describeProblem(d: DecisionInput, i: number): void {
  const where = `rows[${i}]`
  checkId(d.taskId, `${where}.taskId`)
  checkOneOf(d.decision, DECISION_KINDS, `${where}.decision`)
  if (typeof d.spotCheck !== 'boolean') throw new StoreError('bad_input', `${where}.spotCheck must be a boolean`)
  checkNullableString(d.answer, `${where}.answer`)
  const post = checkJsonObject(d.posterior, `${where}.posterior`)
  for (const [k, p] of Object.entries(post)) {
    if (typeof p !== 'number') throw new StoreError('bad_input', `${where}.posterior.${k} must be a number`)
  }
  if (d.stopRound !== null) checkInt(d.stopRound, `${where}.stopRound`)
  checkNullableFinite(d.gap, `${where}.gap`)
  const numbers = (v: unknown, what: string) => {
    if (v === null || v === undefined) return
    if (!(Array.isArray(v) && v.every((b) => b === null || typeof b === 'number'))) {
      throw new StoreError('bad_input', `${where}.${what} must be an array of numbers (or nulls), or null`)
    }
    checkJson(v, `${where}.${what}`)
  }
  numbers(d.bound, 'bound')
  numbers(d.k, 'k')
  if (!whyOrNull(d.why)) {
    throw new StoreError('bad_input', `${where}.why must be null or { ${WHY_KEYS.join(', ')}[, n] }, each a finite number (n a whole number ≥ 0)`)
  }
  checkNullableString(d.reason, `${where}.reason`)
  checkNullableFinite(d.disagreement, `${where}.disagreement`)
}

/** A page of decision rows: each row checked, no task twice; its act and spot-check counts. */
export function checkDecisionRows(rows: DecisionInput[]): { acted: number; spot: number } {
  if (!Array.isArray(rows)) throw new StoreError('bad_input', 'rows must be an array')
  for (let i = 0; i < rows.length; i++) checkDecision(rows[i], i)
  const seen = new Set<string>()
  let acted = 0
  let spot = 0
  for (const d of rows) {
    if (seen.has(d.taskId)) throw twice(d.taskId)
    seen.add(d.taskId)
    if (d.decision === 'act') acted++
    if (d.spotCheck) spot++
  }
  return { acted, spot }
}


/** Rows → a page, each row checked first (the rows' own checks and messages, decision-check.ts). */
export function pageOfRows(rows: DecisionInput[]): DecisionPage {
  checkDecisionRows(rows)
  const page = new DecisionPageBuilder(rows.length)
  // Rows with the same posterior keys, in the same order, share one list.
  const lists = new Map<string, string[]>()
  for (const d of rows) {
    const keys = Object.keys(d.posterior)
    const name = JSON.stringify(keys)
    let list = lists.get(name)
    if (list === undefined) lists.set(name, (list = keys))
    page.add({
      taskId: d.taskId, act: d.decision === 'act', spotCheck: d.spotCheck, answer: d.answer, reason: d.reason ?? null,
      stopRound: d.stopRound, gap: d.gap, disagreement: d.disagreement, candidates: list, posterior: list.map((k) => d.posterior[k]),
      bound: d.bound, k: d.k ?? null, why: d.why ?? null
    })
  }
  return page.finish()
}

/** A page → rows (for a backend that writes rows), in page order. */
export function rowsOfPage(p: DecisionPage): DecisionInput[] {
  return p.taskIds.map((taskId, i) => {
    const list = p.lists[p.listOf[i]]
    const posterior: Record<string, number> = {}
    for (let g = 0; g < list.length; g++) posterior[list[g]] = p.posteriors[p.posteriorAt[i] + g]
    return {
      taskId, decision: p.flags[i] & ACT ? 'act' : 'defer', spotCheck: (p.flags[i] & SPOT) !== 0, answer: p.answers[i], posterior,
      stopRound: orNull(p.stopRounds[i]), gap: orNull(p.gaps[i]), disagreement: orNull(p.disagreements[i]),
      bound: listOf(p.bounds, p.boundAt[i], p.boundLength[i]), k: listOf(p.ks, p.kAt[i], p.kLength[i]),
      why: whyOf(p.whys, i), reason: p.reasons[i]
    }
  })
}

const orNull = (x: number): number | null => (Number.isNaN(x) ? null : x)

function listOf(values: Float64Array, at: number, length: number): (number | null)[] | null {
  if (length < 0) return null
  const out: (number | null)[] = new Array(length)
  for (let j = 0; j < length; j++) out[j] = orNull(values[at + j])
  return out
}

function whyOf(whys: Float64Array, i: number): DecisionWhy | null {
  const w = i * WHY_STRIDE
  if (Number.isNaN(whys[w])) return null
  const why: DecisionWhy = { round: whys[w], k: whys[w + 1], qhat: whys[w + 2], bias: whys[w + 3], conc: whys[w + 4] }
  if (!Number.isNaN(whys[w + WHY_N])) why.n = whys[w + WHY_N]
  return why
}

