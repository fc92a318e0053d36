/**
 * Budget decomposition β = δ + α + ε_act (docs/engine.md §8.8; AoD §3 Eq. 2, B.4): the action
 * threshold is 1 − α with α = β − (δ + ε_act). With the defaults α = β − 0.05; α ≤ 0 means the
 * threshold cannot be met by any bound, so everything is deferred.
 */
export { actionAlpha } from '../../../shared/action-alpha'

/**
 * The λ grid of λ = auto (docs/engine.md §8 "Budget"; AoD B.5): 0.25, 0.50, …, 5.00. Built as i/4 so
 * every value is exact in binary floating point (no accumulated 0.25 steps).
 */
export const LAMBDA_GRID: readonly number[] = Array.from({ length: 20 }, (_, i) => (i + 1) / 4)

/**
 * ê_T = out-of-fold final-round error on a calibration set = 1 − mean z[T−1] (§8 "Budget"; AoD
 * B.5). The relative budget is β = λ·ê_T, which makes budgets comparable across task families.
 */
export function finalRoundError(z: readonly ArrayLike<number>[], T: number): number {
  if (z.length === 0) return Number.NaN
  let right = 0
  for (let i = 0; i < z.length; i++) right += z[i][T - 1]
  return 1 - right / z.length
}
