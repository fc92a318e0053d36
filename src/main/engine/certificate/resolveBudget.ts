import { actionAlpha } from './budget'
import type { Certificate } from './build'
import { selectLambda, type LambdaSelection } from './lambda'
import type { Budget, CalibrationTask, DeferReason } from './types'

/**
 * The budget in force for one built certificate (docs/engine.md §8 "Budget"; AoD B.5): absolute β;
 * relative β = λ·ê_T; or λ = auto (λ* from the C1/C2 search, then β = λ*·ê_T on all of C). Split
 * from `certify` so a long-lived certificate (the service's fit) can be decided under any budget
 * a later `decide` asks for, without rebuilding.
 */
export interface ResolvedBudget {
  /** β in force; null when λ = auto found nothing feasible. */
  readonly beta: number | null
  /** α = β − (δ + ε_act); null with β. */
  readonly alpha: number | null
  /** λ used (relative or auto), else null. */
  readonly lambda: number | null
  /** A reason imposed by the budget itself (λ = auto: "insufficient evidence"), else null. */
  readonly forced: DeferReason | null
  /** The reason that defers every task (forced, α ≤ 0 or empty 𝒦_used), null to apply the rule. */
  readonly reason: DeferReason | null
  /** The λ = auto search, when it ran. */
  readonly lambdaSearch: LambdaSelection | null
}

/**
 * The reason that defers every task, if any: a forced one (λ = auto found nothing), else α ≤ 0
 * (or β unknown), else an empty 𝒦_used; null to apply the stopping rule.
 */
export function deferAllReason(alpha: number | null, kUsedCount: number, forced: DeferReason | null = null): DeferReason | null {
  if (forced !== null) return forced
  if (alpha === null || !(alpha > 0)) return 'alpha-nonpositive'
  if (kUsedCount === 0) return 'no-usable-k'
  return null
}

/**
 * @param calibration the C the certificate was built on (λ = auto splits it into C1 / C2)
 * @throws RangeError for a negative or non-finite β or λ.
 */
export function resolveBudget(cert: Certificate, calibration: readonly CalibrationTask[], budget: Budget): ResolvedBudget {
  const figures = { finalRoundError: cert.finalRoundError, delta: cert.options.delta, epsAct: cert.options.epsAct, kUsedCount: cert.kUsed.length }
  if (budget.kind !== 'auto') return resolveFixedBudget(figures, budget)
  const lambdaSearch = selectLambda(calibration, cert.options, cert.T)
  const lambda = lambdaSearch.lambda
  const forced: DeferReason | null = lambda === null ? 'insufficient evidence' : null
  const beta = lambda === null ? null : lambda * figures.finalRoundError
  const alpha = beta === null ? null : actionAlpha(beta, figures.delta, figures.epsAct)
  return { beta, alpha, lambda, forced, reason: deferAllReason(alpha, figures.kUsedCount, forced), lambdaSearch }
}

/** What an absolute or relative budget needs of a certificate: figures a stored fit keeps (its certificate JSON). */
export interface BudgetFigures {
  /** ê_T, the final round's error rate on C. */
  readonly finalRoundError: number
  readonly delta: number
  readonly epsAct: number
  /** |𝒦_used|. */
  readonly kUsedCount: number
}

/**
 * An absolute or relative budget resolved from a certificate's figures alone (no calibration set):
 * what a re-decide under another budget needs, without refitting (only λ = auto searches C).
 * `resolveBudget` resolves these two kinds through it, so both give the same bits.
 */
export function resolveFixedBudget(figures: BudgetFigures, budget: Exclude<Budget, { kind: 'auto' }>): ResolvedBudget {
  let beta: number
  let lambda: number | null = null
  if (budget.kind === 'absolute') {
    if (!Number.isFinite(budget.beta) || budget.beta < 0) throw new RangeError(`certify: bad β ${budget.beta}`)
    beta = budget.beta
  } else {
    if (!Number.isFinite(budget.lambda) || budget.lambda < 0) throw new RangeError(`certify: bad λ ${budget.lambda}`)
    lambda = budget.lambda
    beta = budget.lambda * figures.finalRoundError
  }
  const alpha = actionAlpha(beta, figures.delta, figures.epsAct)
  return { beta, alpha, lambda, forced: null, reason: deferAllReason(alpha, figures.kUsedCount, null), lambdaSearch: null }
}
