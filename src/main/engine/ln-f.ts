import betaln from '@stdlib/math-base-special-betaln'

/**
 * A seat's marginal likelihood factor under hypothesis g (docs/engine.md §3, BDA Eq. 1):
 *
 *   ln F_i(g) = lnB(α + c, β + d) − lnB(α, β) − (N − e)·ln(K − 1),   d = N − c
 *
 * with lnB from stdlib's betaln (accurate for large arguments). This is the reference form; the
 * hot loops use `oneCoinLogLik`, the same quantity up to g-independent terms via lnΓ tables.
 * O(1).
 */
export function lnF(alpha: number, beta: number, c: number, N: number, e: number, K: number): number {
  return betaln(alpha + c, beta + (N - c)) - betaln(alpha, beta) - (N - e) * Math.log(K - 1)
}

/**
 * In-place log-sum-exp normalisation of log-probabilities: out[g] ← exp(x[g] − ln Σ exp x).
 * Returns the normaliser ln Σ exp x. All −∞ (impossible for our models) yields NaN. O(K).
 */
export function normalizeLog(x: Float64Array, K: number = x.length): number {
  let max = -Infinity
  for (let g = 0; g < K; g++) if (x[g] > max) max = x[g]
  let sum = 0
  for (let g = 0; g < K; g++) {
    x[g] = Math.exp(x[g] - max)
    sum += x[g]
  }
  for (let g = 0; g < K; g++) x[g] /= sum
  return max + Math.log(sum)
}
