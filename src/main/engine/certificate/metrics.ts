import { actionAlpha } from './budget'
import type { BoundTable } from './bounds'
import { firstCrossing } from './decide'

/**
 * Certificate metrics (docs/engine.md §8 "Metrics"; AoD §6), on tasks whose correctness is known:
 * - Act = acted share; Acc|Act = right among acted (null when nothing acted);
 * - WA = share of ALL tasks acted on wrongly (the quantity the budget β bounds, AoD Thm. 3);
 * - WA/β = budget usage (null when β ≤ 0);
 * - Rnd = mean of (stopRound + 1), a deferred task counting T.
 * A task acted at τ is right iff z[τ] = 1 (its answer is Ŷ_τ).
 */
export interface CertificateMetrics {
  readonly n: number
  readonly acted: number
  readonly wrong: number
  readonly act: number
  readonly accAct: number | null
  readonly wa: number
  readonly waOverBeta: number | null
  readonly rnd: number
}

/**
 * @param stop τ per task (−1 = deferred); @param z per task, z[t] = 1 when Ŷ_t was right
 */
export function metricsFromStops(
  stop: ArrayLike<number>,
  z: readonly ArrayLike<number>[],
  T: number,
  beta: number | null
): CertificateMetrics {
  const n = stop.length
  if (z.length !== n) throw new RangeError('metrics: stops and z differ in length')
  let acted = 0
  let wrong = 0
  let rounds = 0
  for (let i = 0; i < n; i++) {
    const tau = stop[i]
    if (tau >= 0) {
      acted++
      if (z[i][tau] !== 1) wrong++
      rounds += tau + 1
    } else {
      rounds += T
    }
  }
  const wa = n === 0 ? 0 : wrong / n
  return {
    n,
    acted,
    wrong,
    act: n === 0 ? 0 : acted / n,
    accAct: acted === 0 ? null : (acted - wrong) / acted,
    wa,
    waOverBeta: beta !== null && beta > 0 ? wa / beta : null,
    rnd: n === 0 ? 0 : rounds / n
  }
}

/** Metrics of a list of decisions (e.g. `certify(...).tasks`). */
export function certificateMetrics(
  decisions: readonly { readonly stopRound: number | null }[],
  z: readonly ArrayLike<number>[],
  T: number,
  beta: number | null
): CertificateMetrics {
  return metricsFromStops(
    Int32Array.from(decisions, (d) => (d.stopRound === null ? -1 : d.stopRound)),
    z,
    T,
    beta
  )
}

export interface FrontierPoint extends CertificateMetrics {
  readonly beta: number
  readonly alpha: number
}

/**
 * Risk–automation frontier (AoD §6.3, Fig. 2): sweep declared budgets β over one bound table
 * (bounds do not depend on β) and report the metrics at each. α ≤ 0 acts on nothing.
 */
export function riskAutomationFrontier(
  table: BoundTable,
  z: readonly ArrayLike<number>[],
  betas: readonly number[],
  delta = 0.03,
  epsAct = 0.02
): FrontierPoint[] {
  return betas.map((beta) => {
    const alpha = actionAlpha(beta, delta, epsAct)
    const stop = alpha > 0 ? firstCrossing(table, 1 - alpha) : new Int32Array(table.n).fill(-1)
    return { beta, alpha, ...metricsFromStops(stop, z, table.T, beta) }
  })
}
