import type { RoundState } from './types'

/**
 * State helpers of ENGINE.md §8.2 (AoD §2 "State embedding", B.1): U_t = (p1, Δ) with p1 the top
 * probability and Δ = p1 − p2 of a distribution over the candidates 𝒦.
 *
 * Why discrete states: coinciding states are at distance 0, so inside a cell the k-NN radius is 0
 * and the bias term ω̂(0) vanishes; with raw continuous posteriors the modulus at the k-NN radius
 * is large and nothing is ever certified (§8.2).
 */

/**
 * `social` shares (AoD B.1, §8.2): P(y) = share of seats whose current answer is y. A seat's
 * current answer is its latest +1 candidate up to round t (a retract clears it) — the caller
 * derives it from the moves and passes `null`/`undefined` for a seat without one. Seats without a
 * current answer are left out of the denominator; when no seat has one, P is uniform over 𝒦.
 * An answer that is not a candidate is a caller bug and throws.
 *
 * @returns P in candidate order.
 */
export function socialShares(
  candidates: readonly string[],
  currentAnswers: readonly (string | null | undefined)[]
): Float64Array {
  const K = candidates.length
  if (K < 2) throw new RangeError('socialShares: need at least 2 candidates')
  const pos = new Map<string, number>()
  for (let c = 0; c < K; c++) pos.set(candidates[c], c)
  const counts = new Float64Array(K)
  let total = 0
  for (const a of currentAnswers) {
    if (a === null || a === undefined) continue
    const c = pos.get(a)
    if (c === undefined) throw new RangeError(`socialShares: answer ${JSON.stringify(a)} is not a candidate`)
    counts[c] += 1
    total += 1
  }
  const P = new Float64Array(K)
  // Division by the count of answering seats (not by I) — §8.2's denominator rule.
  for (let c = 0; c < K; c++) P[c] = total === 0 ? 1 / K : counts[c] / total
  return P
}

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
