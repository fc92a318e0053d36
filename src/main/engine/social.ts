import { cutAt, CURRENT_AT, recordWidth, type TaskTallies } from './tallies'

/**
 * The `social` distribution at round cut t (ENGINE.md §8 state, AoD B.1): P(y) = share of seats
 * whose current answer (latest +1 candidate up to round t, cleared by a retract) is y; seats
 * without one are left out of the denominator; uniform over 𝒦 when no seat has one.
 * Writes and returns `out`. O(S + K).
 */
export function socialAt(t: TaskTallies, round?: number, out: Float64Array = new Float64Array(t.K)): Float64Array {
  const K = t.K
  out.fill(0, 0, K)
  const cut = cutAt(t, round)
  let n = 0
  if (cut >= 0) {
    const W = recordWidth(K)
    for (let s = 0; s < t.S; s++) {
      const a = t.counts[(cut * t.S + s) * W + CURRENT_AT]
      if (a >= 0) {
        out[a]++
        n++
      }
    }
  }
  if (n === 0) out.fill(1 / K, 0, K)
  else for (let g = 0; g < K; g++) out[g] /= n
  return out
}

/** Local seat s's current answer at round cut t (−1: none). */
export function currentAnswer(t: TaskTallies, s: number, round?: number): number {
  const cut = cutAt(t, round)
  return cut < 0 ? -1 : t.counts[(cut * t.S + s) * recordWidth(t.K) + CURRENT_AT]
}
