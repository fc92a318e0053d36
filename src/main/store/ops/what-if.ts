/**
 * What another absolute β would do under the current fit, read from its stored bounds:
 * no refit, no engine. One pass over the packed bound lists of the rows that can reach the
 * threshold (the gap index narrows them), each read in place; the counts of the rest come from the
 * fit's stored counts (decided-counts.ts), so the cost grows with the tasks that would act, never
 * with the whole fit.
 */
import { StoreError, type BudgetWhatIfInput, type BudgetWhatIfResult } from '../contract'
import { readNumbers, readWhy, WHY_KEYS, type StoredNumbers } from '../decision-numbers'
import { decisionsTable } from '../fit-decisions'
import { LIVE_LABEL } from '../label-rules'
import { rowOf, rowsOf, type Plan } from '../plan'
import { checkIsoUtc, checkNullableFinite } from '../validate'
import { decidedCounts } from './decided-counts'
import type { Dialect } from './dialect'
import { latestDecidedFitId } from './fits'

const NO_LIVE_LABEL = `NOT EXISTS (SELECT 1 FROM labels l WHERE l.task_id = d.task_id AND ${LIVE_LABEL('l')})`

/** Where the best round and q̂ sit in a stored decomposition (decision-numbers.ts). */
const WHY_ROUND = WHY_KEYS.indexOf('round')
const WHY_QHAT = WHY_KEYS.indexOf('qhat')

export function* budgetWhatIf(d: Dialect, input: BudgetWhatIfInput): Plan<BudgetWhatIfResult> {
  const threshold = checkNullableFinite(input?.threshold, 'threshold')
  if (threshold === null) throw new StoreError('bad_input', 'threshold must be a finite number', { field: 'threshold' })
  const gapAtMost = checkNullableFinite(input.gapAtMost, 'gapAtMost')
  const fitId = yield* latestDecidedFitId(d)
  if (fitId === null) return { fitId: null, undecided: 0, acted: 0, expectedWrong: 0, boundedTerms: 0 }
  const table = decisionsTable(fitId)
  const stored = yield* decidedCounts(d, fitId)
  const undecided =
    stored === null
      ? Number((yield* rowOf<{ n: number }>(`SELECT count(*) AS n FROM ${table} d WHERE ${NO_LIVE_LABEL}`))?.n ?? 0)
      : stored.acted + stored.deferred
  // `decision IN (…)` leads the (decision, gap) index, so the gap range is two index ranges.
  const narrow = gapAtMost === null ? '' : `AND d.decision IN ('act', 'defer') AND d.gap <= ?`
  const rows = yield* rowsOf<{ bound: StoredNumbers; why: StoredNumbers | null }>(
    `SELECT d.bound, d.why FROM ${table} d WHERE d.bound IS NOT NULL ${narrow} AND ${NO_LIVE_LABEL}`,
    ...(gapAtMost === null ? [] : [gapAtMost])
  )
  let acted = 0
  let boundedTerms = 0
  // Neumaier's compensated sum: the figure does not depend on the order the rows come in (index or key).
  let sum = 0
  let carry = 0
  for (const r of rows) {
    const stop = firstCrossing(r.bound, threshold)
    if (stop === null) continue
    acted++
    const best = bestRoundQhat(r.why)
    let term: number
    if (best !== null && best.round === stop.round) term = 1 - best.qhat
    else {
      term = 1 - stop.bound
      boundedTerms++
    }
    const next = sum + term
    carry += Math.abs(sum) >= Math.abs(term) ? sum - next + term : term - next + sum
    sum = next
  }
  return { fitId, undecided, acted, expectedWrong: sum + carry, boundedTerms }
}

/** Live labels recorded after `since` and, when `until` is given, not after it. */
export function* countLabelsSince(since: string, until: string | null): Plan<number> {
  const from = checkIsoUtc(since, 'since')
  const to = until === null ? null : checkIsoUtc(until, 'until')
  const upTo = to === null ? '' : 'AND l.at <= ?'
  return Number((yield* rowOf<{ n: number }>(`SELECT count(*) AS n FROM labels l WHERE l.at > ? ${upTo} AND ${LIVE_LABEL('l')}`, from, ...(to === null ? [] : [to])))?.n ?? 0)
}

/**
 * The first round whose bound reaches the threshold, and that bound, or null — the engine's own
 * comparison (`L_t ≥ 1 − α`, certificate/decide.ts), so a what-if at the fit's own threshold acts
 * on exactly the tasks the fit acted on. Read in place from the stored bytes (no array per row).
 */
function firstCrossing(v: StoredNumbers, threshold: number): { round: number; bound: number } | null {
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

function bestRoundQhat(v: StoredNumbers | null): { round: number; qhat: number } | null {
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
