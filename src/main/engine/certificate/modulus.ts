/**
 * Empirical modulus of continuity of the pilot smoother (docs/engine.md §8.6; AoD §3 Eq. 7, C.4):
 *
 *     ω̂_t(r) = max { |q̃_t(U_i) − q̃_t(U_j)| : i, j ∈ D_mod, d(U_i, U_j) ≤ r }   (max over none = 0)
 *
 * Euclidean distance in the normalised space. ω̂(0) is exact: only coinciding pairs. For r > 0 the
 * distances are binned on the edges e_b = b·w (b = 1..B, w = 1.5/B, covering √2): a pair at
 * distance d lands in the smallest b with e_b ≥ d, and ω̂(r) is answered with the running max up to
 * the smallest edge ≥ r. That includes every pair with d ≤ r (and possibly a few with r < d ≤ e_b),
 * so the binned value only ever OVER-estimates ω̂(r) — a larger bias term, never an invalid bound.
 *
 * Rows are grouped into distinct states first (min and max q̃ per state), so the pair loop is over
 * distinct states: tiny for the discrete states of §8.2, ≤ 4000² / 2 otherwise.
 */
export class EmpiricalModulus {
  /** prefixMax[b] = max |Δq̃| over pairs with distance ≤ e_b; prefixMax[0] is the exact ω̂(0). */
  readonly prefixMax: Float64Array
  readonly binWidth: number
  readonly bins: number

  /**
   * @param x @param y normalised coordinates of the (subsampled) D_mod rows
   * @param q q̃ at those rows
   */
  constructor(x: Float64Array, y: Float64Array, q: Float64Array, bins: number) {
    this.bins = bins
    this.binWidth = 1.5 / bins
    // Distinct states with the min and max q̃ among their rows.
    const index = new Map<string, number>()
    const sx: number[] = []
    const sy: number[] = []
    const qmin: number[] = []
    const qmax: number[] = []
    for (let i = 0; i < x.length; i++) {
      const key = `${x[i]},${y[i]}`
      const s = index.get(key)
      if (s === undefined) {
        index.set(key, sx.length)
        sx.push(x[i])
        sy.push(y[i])
        qmin.push(q[i])
        qmax.push(q[i])
      } else {
        if (q[i] < qmin[s]) qmin[s] = q[i]
        if (q[i] > qmax[s]) qmax[s] = q[i]
      }
    }
    const S = sx.length
    const X = Float64Array.from(sx)
    const Y = Float64Array.from(sy)
    const lo = Float64Array.from(qmin)
    const hi = Float64Array.from(qmax)
    const binMax = new Float64Array(bins + 1)
    // Coinciding pairs (d = 0): within a state.
    for (let s = 0; s < S; s++) binMax[0] = Math.max(binMax[0], hi[s] - lo[s])
    for (let i = 0; i < S; i++) {
      const xi = X[i]
      const yi = Y[i]
      const loI = lo[i]
      const hiI = hi[i]
      for (let j = i + 1; j < S; j++) {
        const dx = X[j] - xi
        const dy = Y[j] - yi
        const b = this.binOf(Math.sqrt(dx * dx + dy * dy))
        const diff = Math.max(hiI - lo[j], hi[j] - loI)
        if (diff > binMax[b]) binMax[b] = diff
      }
    }
    for (let b = 1; b <= bins; b++) if (binMax[b - 1] > binMax[b]) binMax[b] = binMax[b - 1]
    this.prefixMax = binMax
  }

  /** The smallest b with b·w ≥ r (0 only for r = 0), capped at B (which covers every pair). */
  private binOf(r: number): number {
    if (r <= 0) return 0
    const w = this.binWidth
    let b = Math.ceil(r / w)
    // Guard the division's rounding in both directions: we need exactly the smallest edge ≥ r.
    while (b * w < r) b++
    while (b > 1 && (b - 1) * w >= r) b--
    if (b < 1) b = 1
    return b > this.bins ? this.bins : b
  }

  /** ω̂(r), exact at r = 0, an over-estimate on bins for r > 0. */
  at(r: number): number {
    return this.prefixMax[this.binOf(r)]
  }
}
