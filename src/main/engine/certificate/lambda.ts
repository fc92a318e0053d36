import { computeBounds } from './bounds'
import { actionAlpha, LAMBDA_GRID } from './budget'
import { buildCertificate } from './build'
import { firstCrossing } from './decide'
import { metricsFromStops } from './metrics'
import { resolveOptions } from './options'
import { lambdaHalves } from './split'
import type { CalibrationTask, CertificateOptions } from './types'

/**
 * λ = auto (docs/engine.md §8 "Budget"; AoD B.5): choose the relative budget β = λ·ê_T from the
 * calibration data alone.
 * - C1 = the first ⌊|C|/2⌋ tasks of C in H(`${seed}:lambda:${task}`) order, C2 = the rest; both
 *   reuse C's out-of-fold states (no refit).
 * - The certificate on C1 is built as on C: its own D_mod/D_loc split and ECDF, with the T of C.
 * - For λ ∈ (0.25, 0.50, …, 5.00): β = λ·ê_T(C1), skipped when β > 0.99; decide C2 with the C1
 *   certificate; Act and WA on C2 (WA from C2's z).
 * - feasible ⇔ Act(C2) > 0 and WA/β ≤ 0.10; λ* = the feasible λ with the highest Act (compared as
 *   acted counts, so exactly), ties → the smaller λ. None feasible ⇒ null ("insufficient
 *   evidence").
 * The C1 bounds on C2 do not depend on β, so they are computed once for the whole grid.
 */
export interface LambdaCandidate {
  readonly lambda: number
  readonly beta: number
  /** β > 0.99: not evaluated. */
  readonly skipped: boolean
  readonly act: number
  readonly wa: number
  readonly waOverBeta: number | null
  readonly feasible: boolean
}

export interface LambdaSelection {
  /** λ*, or null when nothing is feasible. */
  readonly lambda: number | null
  /** ê_T on C1. */
  readonly baseError: number
  readonly sizeC1: number
  readonly sizeC2: number
  readonly candidates: readonly LambdaCandidate[]
}

/** Feasibility ceiling on WA/β (AoD B.5). */
export const MAX_BUDGET_USAGE = 0.1

export function selectLambda(
  calibration: readonly CalibrationTask[],
  options: CertificateOptions,
  T: number
): LambdaSelection {
  const opts = resolveOptions(options)
  const ids = calibration.map((c) => c.id)
  const { c1, c2 } = lambdaHalves(ids, opts.seed)
  const C1 = Array.from(c1, (i) => calibration[i])
  const C2 = Array.from(c2, (i) => calibration[i])
  if (C1.length === 0 || C2.length === 0) {
    return { lambda: null, baseError: Number.NaN, sizeC1: C1.length, sizeC2: C2.length, candidates: [] }
  }
  const cert = buildCertificate(C1, opts, T)
  const table = computeBounds(cert, C2)
  const z = C2.map((c) => c.z)
  const e1 = cert.finalRoundError
  const candidates: LambdaCandidate[] = []
  let best: number | null = null
  let bestActed = -1
  for (const lambda of LAMBDA_GRID) {
    const beta = lambda * e1
    if (beta > 0.99) {
      candidates.push({ lambda, beta, skipped: true, act: 0, wa: 0, waOverBeta: null, feasible: false })
      continue
    }
    const alpha = actionAlpha(beta, opts.delta, opts.epsAct)
    const stop = alpha > 0 && cert.kUsed.length > 0 ? firstCrossing(table, 1 - alpha) : new Int32Array(C2.length).fill(-1)
    const m = metricsFromStops(stop, z, T, beta)
    const feasible = m.acted > 0 && m.waOverBeta !== null && m.waOverBeta <= MAX_BUDGET_USAGE
    candidates.push({ lambda, beta, skipped: false, act: m.act, wa: m.wa, waOverBeta: m.waOverBeta, feasible })
    // Ascending λ with a strict '>' keeps the smaller λ on ties in Act.
    if (feasible && m.acted > bestActed) {
      best = lambda
      bestActed = m.acted
    }
  }
  return { lambda: best, baseError: e1, sizeC1: C1.length, sizeC2: C2.length, candidates }
}
