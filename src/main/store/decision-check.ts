/** The check of one decision row a fit saves, the same for both backends. */
import { DECISION_KINDS, StoreError, type DecisionInput } from './contract'
import { MAX_ID_LENGTH } from '../../shared/limits'
import { WHY_KEYS } from './decision-numbers'
import { checkId, checkInt, checkJson, checkJsonObject, checkNullableFinite, checkNullableString, checkOneOf } from './validate'

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

/** A task given a second decision in one fit (in one page, or across pages). */
export const twice = (taskId: string): StoreError => new StoreError('bad_input', `task ${taskId} appears twice in the decisions`)

/** A posterior whose keys are not exactly its task's candidates (each backend checks this against the task). */
export const badPosterior = (taskId: string, candidates: readonly string[], keys: readonly string[], fitId: string): StoreError =>
  new StoreError('bad_input', `the posterior of task ${taskId} must give each of its candidates (${candidates.join(', ')}) a probability, and nothing else`, {
    taskId, fitId, candidates: [...candidates], keys: [...keys]
  })
