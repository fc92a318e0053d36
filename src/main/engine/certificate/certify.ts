import { computeBounds } from './bounds'
import { actionAlpha } from './budget'
import { buildCertificate, calibrationRounds, type Certificate } from './build'
import { decideTasks } from './decide'
import type { LambdaSelection } from './lambda'
import { resolveOptions } from './options'
import { deferAllReason, resolveBudget } from './resolveBudget'
import type { SmootherKind } from './smoother'
import type { BoundKind, Budget, CalibrationTask, CertificateOptions, DeferReason, ScoredTask, TaskDecision } from './types'

/**
 * Act-or-defer certification end to end (docs/engine.md §8; AoD §3, Alg. 1):
 * 1. build the β-independent certificate on C (ECDF, split, smoother, modulus, k-NN indices);
 * 2. resolve the budget: absolute β; relative β = λ·ê_T; or λ = auto (`selectLambda`), then
 *    β = λ*·ê_T on all of C;
 * 3. α = β − (δ + ε_act); α ≤ 0 or empty 𝒦_used ⇒ defer everything with that reason (checked in
 *    that order); otherwise the stopping rule per task.
 */
export interface CertifyResult<A = string> {
  readonly T: number
  /** The §8.7 bound in force. */
  readonly bound: BoundKind
  /** The budget in force; null when λ = auto found nothing feasible. */
  readonly beta: number | null
  readonly alpha: number | null
  /** λ used (relative or auto), else null. */
  readonly lambda: number | null
  /** ê_T on C. */
  readonly finalRoundError: number
  /** Set when every task is deferred for one reason. */
  readonly reason: DeferReason | null
  readonly kUsed: readonly number[]
  readonly sizeMod: number
  readonly sizeLoc: number
  /** Smoother used per round. */
  readonly smoothers: readonly SmootherKind[]
  /** The λ = auto search, when it ran. */
  readonly lambdaSearch: LambdaSelection | null
  readonly tasks: readonly TaskDecision<A>[]
}

/** Decide scored tasks against an already built certificate at budget β (null = unknown). */
export function certifyWith<A>(
  cert: Certificate,
  scored: readonly ScoredTask<A>[],
  beta: number | null,
  forcedReason: DeferReason | null = null
): TaskDecision<A>[] {
  const table = computeBounds(cert, scored)
  const alpha = beta === null ? null : actionAlpha(beta, cert.options.delta, cert.options.epsAct)
  return decideTasks(table, scored, alpha, deferAllReason(alpha, cert.kUsed.length, forcedReason))
}

export function certify<A = string>(
  calibration: readonly CalibrationTask[],
  scored: readonly ScoredTask<A>[],
  budget: Budget = { kind: 'auto' },
  options: CertificateOptions = {}
): CertifyResult<A> {
  const opts = resolveOptions(options)
  const T = calibrationRounds(calibration)
  const cert = buildCertificate(calibration, opts, T)
  const { beta, alpha, lambda, forced, reason, lambdaSearch } = resolveBudget(cert, calibration, budget)
  const tasks = certifyWith(cert, scored, beta, forced)
  return {
    T,
    bound: opts.bound,
    beta,
    alpha,
    lambda,
    finalRoundError: cert.finalRoundError,
    reason,
    kUsed: cert.kUsed,
    sizeMod: cert.modIds.length,
    sizeLoc: cert.locIds.length,
    smoothers: cert.rounds.map((r) => r.smoother),
    lambdaSearch,
    tasks
  }
}
