/**
 * The audit's per-seat table (docs/engine.md §4, §9): what the current fit says about each
 * seat (reliability, weight, adversarial, drift) beside the evidence behind it and an empirical
 * confusion matrix — how the seat's endorsements fall given the truth.
 */
import type { FitSeat, SeatAuditRow } from '../../../shared/api'
import { C_AT, finalRecord, N_AT, type TaskTallies } from '../../engine'
import type { FitRecord } from '../../store'
import { fitDetail } from '../fit/views'
import { driftCharts, type TimedTallies } from './drift-chart'

const setKey = (c: readonly string[]): string => [...c].sort().join('\u0001')

/**
 * The most common candidate SET among the labeled tasks, in the candidate order of the first task
 * that has it (ties: the set met first). Confusion matrices need one label space; mixed councils
 * (K = 2 claims beside K = 4 sums) only share one within a set.
 */
export function commonCandidates(labeled: readonly TaskTallies[]): string[] {
  const count = new Map<string, { n: number; order: readonly string[] }>()
  let best: { n: number; order: readonly string[] } | null = null
  for (const t of labeled) {
    const k = setKey(t.candidates)
    let e = count.get(k)
    if (e === undefined) count.set(k, (e = { n: 0, order: t.candidates }))
    e.n++
    if (best === null || e.n > best.n) best = e
  }
  return best === null ? [] : [...best.order]
}

/**
 * P(seat endorses column | truth row) over `candidates`: the seat's +1 endorsements e_i(g') over
 * the whole trace (§2), counted on the labeled tasks with that candidate set whose truth is the
 * row, each row normalised. A row stays all 0 when the seat endorsed nothing on such tasks; null
 * when the seat never endorsed anything on that set.
 */
export function confusionOf(seat: string, labeled: readonly TaskTallies[], candidates: readonly string[]): number[][] | null {
  const K = candidates.length
  if (K === 0) return null
  const key = setKey(candidates)
  const ref = new Map(candidates.map((c, i) => [c, i]))
  const n = Array.from({ length: K }, () => new Float64Array(K))
  let any = false
  for (const t of labeled) {
    const s = t.seatIds.indexOf(seat)
    if (s < 0 || t.K !== K || setKey(t.candidates) !== key) continue
    const off = finalRecord(t, s)
    const truth = ref.get(t.candidates[t.gold]) as number
    for (let g = 0; g < K; g++) {
      const e = t.counts[off + C_AT + K + g]
      if (e === 0) continue
      n[truth][ref.get(t.candidates[g]) as number] += e
      any = true
    }
  }
  if (!any) return null
  return n.map((row) => {
    const total = row.reduce((a, b) => a + b, 0)
    return Array.from(row, (x) => (total === 0 ? 0 : x / total))
  })
}

/** Σ N_i (endorsements, all rounds) per seat over the labeled tasks. */
export function evidenceOf(labeled: readonly TaskTallies[]): Map<string, number> {
  const out = new Map<string, number>()
  for (const t of labeled) for (let s = 0; s < t.S; s++) out.set(t.seatIds[s], (out.get(t.seatIds[s]) ?? 0) + t.counts[finalRecord(t, s) + N_AT])
  return out
}

/**
 * One row per seat the fit reports (its order), then seats that appeared since (no figures yet).
 * Evidence and confusion are counted on the labels the fit was fitted on.
 */
export function seatRows(
  fit: FitRecord | null, seatIds: readonly string[], fitLabeled: readonly TimedTallies[], candidates: readonly string[], models: Record<string, string>
): SeatAuditRow[] {
  const figures = fit === null ? [] : fitDetail(fit, true).seats
  const tallies = fitLabeled.map((l) => l.tallies)
  const evidence = evidenceOf(tallies)
  const known = new Set(figures.map((f) => f.seat))
  const charts = driftCharts(fitLabeled, [...figures.map((f) => f.seat), ...seatIds.filter((s) => !known.has(s))])
  const rows: SeatAuditRow[] = figures.map((f) => {
    const driftChart = charts.get(f.seat)!
    return {
      seat: f.seat, model: f.model, reliability: f.reliability, weight: f.weight, evidence: evidence.get(f.seat) ?? 0,
      adversarial: f.adversarial, drift: validDrift(f.drift, driftChart.noTimeOrder), driftChart, confusion: confusionOf(f.seat, tallies, candidates)
    }
  })
  for (const seat of seatIds) {
    if (known.has(seat)) continue
    rows.push({
      seat, model: models[seat] ?? null, reliability: null, weight: null, evidence: evidence.get(seat) ?? 0, adversarial: false, drift: null,
      driftChart: charts.get(seat)!, confusion: confusionOf(seat, tallies, candidates)
    })
  }
  return rows
}

/**
 * The fit stores drift as JSON, where a non-finite figure became null: such a line is not shown.
 * A fit stored before `noTimeOrder` was reported takes it from the labels it was fitted on (§9),
 * so its flags are not shown as a verdict when the label times give no order.
 */
function validDrift(d: FitSeatDrift, noTimeOrder: boolean): SeatAuditRow['drift'] {
  if (d === null) return null
  const ok = [d.recent, d.rest, d.diff, d.floor].every((x) => typeof x === 'number' && Number.isFinite(x))
  const none = d.noTimeOrder ?? noTimeOrder
  return ok ? { recent: d.recent, rest: d.rest, diff: d.diff, floor: d.floor, flagged: d.flagged === true && !none, noTimeOrder: none } : null
}

type FitSeatDrift = FitSeat['drift']
