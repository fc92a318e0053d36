/**
 * What a budget β means, in words (docs/engine.md §8), for every place that states it: Settings, the
 * `fit` / `decide` output and the README say the same two things — the guarantee on all tasks,
 * and the bound each acted answer clears.
 */
import { actionAlpha } from './action-alpha'
import type { BoundKind, BudgetSetting } from './contract/settings'

const fixed = (x: number): string => x.toFixed(2)

/** "β = 0.20", "β = 1.5 · ê_T (relative)", "λ = auto". */
export function budgetLabel(budget: BudgetSetting): string {
  if (budget.kind === 'absolute') return `β = ${fixed(budget.beta)}`
  if (budget.kind === 'relative') return `β = ${budget.lambda} · ê_T (relative)`
  return 'λ = auto (β chosen on the calibration set)'
}

export function boundLabel(bound: BoundKind): string {
  return bound === 'binomial' ? 'binomial (Clopper–Pearson) bound' : 'Hoeffding bound (AoD as published)'
}

/**
 * The two readings of β. With a number for β (absolute, or once a fit resolved it) the threshold
 * 1 − α = 1 − (β − δ − ε_act) is worked out; otherwise it is given as the formula.
 */
export function budgetMeaning(beta: number | null, delta: number, epsAct: number): string {
  const b = beta === null ? 'β' : fixed(beta)
  const alpha = beta === null ? null : actionAlpha(beta, delta, epsAct)
  const threshold = alpha === null ? '' : ` = ${alpha > 0 ? fixed(1 - alpha) : 'unreachable (α ≤ 0: everything is deferred)'}`
  return (
    `In expectation over the calibration draw, and provided the random labels are a uniform blind sample, ` +
    `the share of ALL tasks acted on wrongly stays ≤ ${b}; every acted answer's bound is ≥ 1 − α = ` +
    `1 − (${b} − ${fixed(delta)} − ${fixed(epsAct)})${threshold}.`
  )
}
