/**
 * Cubic B-spline basis with knots at distinct quantiles (docs/engine.md §8.5; AoD C.1), following the
 * conventions of scikit-learn's `SplineTransformer(n_knots=8, degree=3, knots="quantile")` so the
 * smoother is the one the paper used:
 * - base knots = the quantiles at j/(m−1), j = 0..m−1 (numpy's linear interpolation) of the
 *   normalised coordinate, duplicates dropped ("up to 8 knots … at distinct quantiles");
 * - the knot vector is extended by `degree` equally spaced knots on each side (spacing = the first
 *   / last base interval), giving (#base + degree − 1) basis functions that form a partition of
 *   unity on [first, last] base knot;
 * - outside that interval the basis is held constant (sklearn's extrapolation="constant").
 */

export const SPLINE_DEGREE = 3

/** Linear-interpolation quantile of an ascending-sorted array (numpy's default "linear" method). */
export function sortedQuantile(sorted: ArrayLike<number>, p: number): number {
  const n = sorted.length
  if (n === 0) return Number.NaN
  const pos = p * (n - 1)
  const i = Math.floor(pos)
  if (i >= n - 1) return sorted[n - 1]
  const frac = pos - i
  return sorted[i] + frac * (sorted[i + 1] - sorted[i])
}

/** Up to `maxKnots` distinct base knots at the quantiles j/(maxKnots−1) of `sorted`. */
export function quantileKnots(sorted: ArrayLike<number>, maxKnots: number): Float64Array {
  const out: number[] = []
  for (let j = 0; j < maxKnots; j++) {
    const q = sortedQuantile(sorted, maxKnots === 1 ? 0 : j / (maxKnots - 1))
    if (out.length === 0 || q > out[out.length - 1]) out.push(q)
  }
  return Float64Array.from(out)
}

/** A cubic B-spline basis on an extended knot vector. */
export class SplineBasis {
  /** The full (extended) knot vector t. */
  readonly knots: Float64Array
  /** Number of basis functions N_0..N_{size−1}. */
  readonly size: number
  private readonly lo: number
  private readonly hi: number
  private readonly left = new Float64Array(SPLINE_DEGREE + 1)
  private readonly right = new Float64Array(SPLINE_DEGREE + 1)

  /** @param base strictly increasing base knots, at least 2. */
  constructor(base: Float64Array) {
    const L = base.length
    if (L < 2) throw new RangeError('SplineBasis: need at least 2 distinct knots')
    const p = SPLINE_DEGREE
    const dMin = base[1] - base[0]
    const dMax = base[L - 1] - base[L - 2]
    const t = new Float64Array(L + 2 * p)
    for (let j = 0; j < p; j++) t[j] = base[0] - (p - j) * dMin
    t.set(base, p)
    for (let j = 0; j < p; j++) t[p + L + j] = base[L - 1] + (j + 1) * dMax
    this.knots = t
    this.size = L + p - 1
    this.lo = base[0]
    this.hi = base[L - 1]
  }

  /**
   * Evaluate the 4 non-zero basis functions at x (Cox–de Boor, "BasisFuns" of Piegl & Tiller).
   * Writes N_{i−3..i}(x) to out[0..3] and returns i − 3, the index of the first one.
   */
  evaluate(x: number, out: Float64Array): number {
    const p = SPLINE_DEGREE
    const t = this.knots
    // Constant extrapolation: outside the base interval use the boundary value.
    const u = x < this.lo ? this.lo : x > this.hi ? this.hi : x
    // Span i with t[i] ≤ u < t[i+1], i in [p, size−1]; the right end of the base interval is
    // closed (it belongs to the last span), as in scipy's BSpline.
    let lo = p
    let hi = this.size - 1
    if (u >= t[hi]) lo = hi
    else {
      while (lo < hi) {
        const mid = (lo + hi + 1) >>> 1
        if (t[mid] <= u) lo = mid
        else hi = mid - 1
      }
    }
    const i = lo
    const left = this.left
    const right = this.right
    out[0] = 1
    for (let j = 1; j <= p; j++) {
      left[j] = u - t[i + 1 - j]
      right[j] = t[i + j] - u
      let saved = 0
      for (let r = 0; r < j; r++) {
        const temp = out[r] / (right[r + 1] + left[j - r])
        out[r] = saved + right[r + 1] * temp
        saved = left[j - r] * temp
      }
      out[j] = saved
    }
    return i - p
  }
}
