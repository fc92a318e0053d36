/**
 * Weighted isotonic (non-decreasing) regression by the pool-adjacent-violators algorithm — the
 * smoother's fallback on p1 (ENGINE.md §8.5; AoD C.2):
 *
 *     q̃ = argmin_{f non-decreasing} Σ_i (Z_i − f(p1_i))²
 *
 * Inputs are de-duplicated sites: `x` the normalised p1, `count` tasks, `sumY` correct tasks.
 * Equal x are pooled first (one value per x, as scikit-learn's IsotonicRegression does), so the
 * fit is a function of the state — required for ω̂(0) = 0 on coinciding states.
 *
 * @returns the fitted value at each input site (input order).
 */
export function isotonicFit(x: Float64Array, count: Float64Array, sumY: Float64Array): Float64Array {
  const n = x.length
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => x[a] - x[b] || a - b)
  // Groups of equal x, in ascending x.
  const groupOfSite = new Int32Array(n)
  const gw: number[] = []
  const gs: number[] = []
  for (let i = 0; i < n; ) {
    let w = 0
    let s = 0
    let j = i
    while (j < n && x[order[j]] === x[order[i]]) {
      w += count[order[j]]
      s += sumY[order[j]]
      groupOfSite[order[j]] = gw.length
      j++
    }
    gw.push(w)
    gs.push(s)
    i = j
  }
  const G = gw.length
  // Blocks on a stack: first group, total weight, total sum.
  const bStart = new Int32Array(G)
  const bW = new Float64Array(G)
  const bS = new Float64Array(G)
  const mean = (b: number): number => (bW[b] > 0 ? bS[b] / bW[b] : 0)
  let top = -1
  for (let g = 0; g < G; g++) {
    top++
    bStart[top] = g
    bW[top] = gw[g]
    bS[top] = gs[g]
    // Pool while the newest block violates monotonicity with the one below it.
    while (top > 0 && mean(top - 1) > mean(top)) {
      bW[top - 1] += bW[top]
      bS[top - 1] += bS[top]
      top--
    }
  }
  const groupValue = new Float64Array(G)
  for (let b = 0; b <= top; b++) {
    const end = b < top ? bStart[b + 1] : G
    const v = mean(b)
    for (let g = bStart[b]; g < end; g++) groupValue[g] = v
  }
  const out = new Float64Array(n)
  for (let s = 0; s < n; s++) out[s] = groupValue[groupOfSite[s]]
  return out
}
