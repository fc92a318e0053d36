/**
 * Right-continuous empirical CDF of one state coordinate at one round (docs/engine.md §8.3; AoD B.2):
 *
 *     F(x) = #{states in C ≤ x} / |C|
 *
 * Calibration and scored states go through the same F, so Euclidean distance in the normalised
 * space is a rank distance that does not depend on how p1 piles up near 1/K or 1. We keep the
 * integer numerator `count(x)`: two states coincide after normalisation exactly when their counts
 * agree, which gives exact, cheap keys for caching and de-duplication.
 */
export class EmpiricalCdf {
  private readonly sorted: Float64Array

  constructor(values: ArrayLike<number>) {
    this.sorted = Float64Array.from(values).sort()
  }

  /** |C|, the denominator. */
  get size(): number {
    return this.sorted.length
  }

  /** #{v ≤ x}: the first index whose value exceeds x (binary search, right-continuous). */
  count(x: number): number {
    const s = this.sorted
    let lo = 0
    let hi = s.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (s[mid] <= x) lo = mid + 1
      else hi = mid
    }
    return lo
  }

  /** F(x) in [0, 1]. */
  value(x: number): number {
    return this.count(x) / this.sorted.length
  }
}
