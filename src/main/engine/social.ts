import { cutAt, CURRENT_AT, recordWidth, type TaskTallies } from './tallies'

// Read once: under some module transforms (tsx, vitest) an imported binding is a getter per access,
// and `socialAt` reads it for every seat of every round a decide scores.
const CURRENT = CURRENT_AT

/**
 * The `social` distribution (docs/engine.md §8.2 state, AoD B.1): P(y) = share of seats whose current
 * answer (latest +1 candidate up to round t, cleared by a retract) is y; seats without one are
 * left out of the denominator; uniform over 𝒦 when no seat has one.
 *
 * One rule, two entry points: `socialAt` reads the current answers from tallies (the engine's hot
 * path), `socialShares` takes them as candidate names (the certificate's plain-data helpers and
 * tests). Both count into `out` and finish with `finishShares`, so they cannot drift apart.
 */

/** Turns per-candidate counts of n answering seats into shares in place; uniform when n = 0. O(K). */
function finishShares(out: Float64Array, K: number, n: number): Float64Array {
  if (n === 0) out.fill(1 / K, 0, K)
  else for (let g = 0; g < K; g++) out[g] /= n
  return out
}

/**
 * P at round cut t of a task's tallies. Writes and returns `out` (length ≥ K; only the first K
 * entries are written). `dropSeat` (local, ≥ 0) is left out, as if it had no answer (the
 * majority-final baseline's leave-one-seat-out influence). O(S + K).
 */
export function socialAt(t: TaskTallies, round?: number, out: Float64Array = new Float64Array(t.K), dropSeat = -1): Float64Array {
  const K = t.K
  out.fill(0, 0, K)
  const cut = cutAt(t, round)
  let n = 0
  if (cut >= 0) {
    const W = recordWidth(K)
    for (let s = 0; s < t.S; s++) {
      const a = t.counts[(cut * t.S + s) * W + CURRENT]
      if (a >= 0 && s !== dropSeat) {
        out[a]++
        n++
      }
    }
  }
  return finishShares(out, K, n)
}

/**
 * P from the seats' current answers given as candidate names (`null` / `undefined` = the seat has
 * none), in candidate order.
 * @throws RangeError for fewer than 2 candidates or an answer that is not a candidate (a caller bug).
 */
export function socialShares(candidates: readonly string[], currentAnswers: readonly (string | null | undefined)[]): Float64Array {
  const K = candidates.length
  if (K < 2) throw new RangeError('socialShares: need at least 2 candidates')
  const out = new Float64Array(K)
  let n = 0
  for (const a of currentAnswers) {
    if (a === null || a === undefined) continue
    const c = candidates.indexOf(a)
    if (c < 0) throw new RangeError(`socialShares: answer ${JSON.stringify(a)} is not a candidate`)
    out[c]++
    n++
  }
  return finishShares(out, K, n)
}

/** Local seat s's current answer at round cut t (−1: none). */
export function currentAnswer(t: TaskTallies, s: number, round?: number): number {
  const cut = cutAt(t, round)
  return cut < 0 ? -1 : t.counts[(cut * t.S + s) * recordWidth(t.K) + CURRENT_AT]
}
