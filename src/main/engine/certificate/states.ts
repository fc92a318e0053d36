import { socialShares } from '../social'
import type { RoundState } from './types'

/**
 * State helpers of docs/engine.md §8.2 (AoD §2 "State embedding", B.1): U_t = (p1, Δ) with p1 the top
 * probability and Δ = p1 − p2 of a distribution over the candidates 𝒦.
 *
 * Why discrete states: coinciding states are at distance 0, so inside a cell the k-NN radius is 0
 * and the bias term ω̂(0) vanishes; with raw continuous posteriors the modulus at the k-NN radius
 * is large and nothing is ever certified (§8.2).
 */

// The share rule lives in ../social.ts, shared with the engine's tallies path (one rule, no drift).
export { socialShares }

/** (p1, Δ) of a distribution: p1 = max_y P(y), Δ = p1 − (second largest). Needs K ≥ 2. */
export function stateOf(P: ArrayLike<number>): RoundState {
  if (P.length < 2) throw new RangeError('stateOf: need at least 2 probabilities')
  let first = -Infinity
  let second = -Infinity
  for (let i = 0; i < P.length; i++) {
    const v = P[i]
    if (v > first) {
      second = first
      first = v
    } else if (v > second) {
      second = v
    }
  }
  return { p1: first, delta: first - second }
}

/** The default `social` state U_t (§8.2): `stateOf(socialShares(...))`. */
export function socialState(
  candidates: readonly string[],
  currentAnswers: readonly (string | null | undefined)[]
): RoundState {
  return stateOf(socialShares(candidates, currentAnswers))
}

/** The 0.05 grid of the `posterior` state: ⌊20x + 1/2⌋ / 20 (§8.2). */
export function roundToGrid(x: number): number {
  return Math.floor(20 * x + 0.5) / 20
}

/**
 * The `posterior` state (§8.2): p1 and Δ are both taken from the RAW posterior and each rounded to
 * the 0.05 grid (so Δ is round(p1 − p2), not round(p1) − round(p2)).
 */
export function posteriorState(posterior: ArrayLike<number>): RoundState {
  const raw = stateOf(posterior)
  return { p1: roundToGrid(raw.p1), delta: roundToGrid(raw.delta) }
}
