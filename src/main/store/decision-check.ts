/** The check of one decision row a fit saves, the same for both backends. */
import { DECISION_KINDS, StoreError, type DecisionInput } from './types'
import { checkId, checkInt, checkJson, checkJsonObject, checkNullableFinite, checkNullableString, checkOneOf } from './validate'

export function checkDecision(d: DecisionInput, i: number): void {
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
  if (d.why !== null && d.why !== undefined) checkJsonObject(d.why, `${where}.why`)
  checkNullableString(d.reason, `${where}.reason`)
  checkNullableFinite(d.disagreement, `${where}.disagreement`)
}

/** A page of decision rows: each row checked, no task twice; its act and spot-check counts. */
export function checkDecisionRows(rows: DecisionInput[]): { acted: number; spot: number } {
  if (!Array.isArray(rows)) throw new StoreError('bad_input', 'rows must be an array')
  rows.forEach(checkDecision)
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
