/**
 * Isotonic regression by pool-adjacent-violators (PAVA): the non-decreasing step fit minimising
 * Σ w·(y − f(x))². Serves both the audits' recalibration (docs/engine.md §7) and the certificate
 * smoother's fallback on p1 (§8.5, AoD C.2). Equal x are pooled first, so the fit is a function of
 * x — required for ω̂(0) = 0 on coinciding certificate states. Prediction interpolates linearly
 * between the fitted points and clips outside their range (scikit-learn's IsotonicRegression
 * convention). O(n log n).
 *
 * Blocks keep Σw·y and Σw and compare the quotients, so a pooled value is exactly Σw·y / Σw (with
 * integer data, e.g. the certificate's counts of correct tasks, no rounding accumulates).
 */
export interface IsotonicModel {
  /** Distinct x, ascending, and the fitted value at each. */
  readonly x: Float64Array
  readonly y: Float64Array
}

/** Indices of x in ascending x, ties in index order: the order isotonicFit visits. O(n log n). */
export function isotonicOrder(x: ArrayLike<number>): number[] {
  return Array.from({ length: x.length }, (_, i) => i).sort((a, b) => x[a] - x[b] || a - b)
}

/**
 * `order` (default: isotonicOrder(x)) may be any subsequence of it: the fit then covers those
 * points only — cross-fitting filters one sorted order per fold instead of sorting each fold.
 */
export function isotonicFit(x: ArrayLike<number>, y: ArrayLike<number>, w?: ArrayLike<number>, order: readonly number[] = isotonicOrder(x)): IsotonicModel {
  // Blocks as a stack: Σw·y, Σw, and the first distinct-x slot covered.
  const xs: number[] = []
  const sum: number[] = []
  const wt: number[] = []
  const first: number[] = []
  const mean = (b: number): number => (wt[b] > 0 ? sum[b] / wt[b] : 0)
  for (const i of order) {
    const wi = w === undefined ? 1 : w[i]
    if (xs.length > 0 && xs[xs.length - 1] === x[i]) {
      // Same x as the previous slot: pool into the top block.
      sum[sum.length - 1] += y[i] * wi
      wt[wt.length - 1] += wi
    } else {
      xs.push(x[i])
      sum.push(y[i] * wi)
      wt.push(wi)
      first.push(xs.length - 1)
    }
    while (sum.length > 1 && mean(sum.length - 2) > mean(sum.length - 1)) {
      const b = sum.length - 1
      sum[b - 1] += sum[b]
      wt[b - 1] += wt[b]
      sum.pop()
      wt.pop()
      first.pop()
    }
  }
  const fx = Float64Array.from(xs)
  const fy = new Float64Array(xs.length)
  for (let b = 0; b < sum.length; b++) {
    const end = b + 1 < first.length ? first[b + 1] : xs.length
    fy.fill(mean(b), first[b], end)
  }
  return { x: fx, y: fy }
}

/** f(v): linear interpolation between fitted points, clipped outside; NaN for an empty fit. */
export function isotonicPredict(m: IsotonicModel, v: number): number {
  const n = m.x.length
  if (n === 0) return NaN
  if (v <= m.x[0]) return m.y[0]
  if (v >= m.x[n - 1]) return m.y[n - 1]
  let lo = 0
  let hi = n - 1
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1
    if (m.x[mid] <= v) lo = mid
    else hi = mid
  }
  return m.y[lo] + ((m.y[hi] - m.y[lo]) * (v - m.x[lo])) / (m.x[hi] - m.x[lo])
}

/**
 * Leak-free isotonic recalibration of top-label confidences: for each fold f, fit on the other
 * folds' (confidence, correct) and map fold f's confidences. Items whose fold has no training
 * data keep their raw confidence. Returns the out-of-fold recalibrated confidences. O(F·n log n).
 */
export function cvIsotonicRecalibrate(conf: Float64Array, correct: Uint8Array, fold: Int32Array): Float64Array {
  const out = Float64Array.from(conf)
  const F = fold.reduce((m, f) => Math.max(m, f + 1), 0)
  for (let f = 0; f < F; f++) {
    const train: number[] = []
    const test: number[] = []
    for (let i = 0; i < conf.length; i++) (fold[i] === f ? test : train).push(i)
    if (test.length === 0 || train.length === 0) continue
    const m = isotonicFit(Float64Array.from(train, (i) => conf[i]), Float64Array.from(train, (i) => correct[i]))
    for (const i of test) out[i] = isotonicPredict(m, conf[i])
  }
  return out
}
