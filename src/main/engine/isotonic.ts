/**
 * Isotonic regression by pool-adjacent-violators (PAVA): the non-decreasing step fit minimising
 * Σ w·(y − f(x))² (ENGINE.md §7, isotonic recalibration for audits). Equal x are pooled first;
 * prediction interpolates linearly between the fitted points and clips outside their range
 * (scikit-learn's IsotonicRegression convention). O(n log n).
 */
export interface IsotonicModel {
  /** Distinct x, ascending, and the fitted value at each. */
  readonly x: Float64Array
  readonly y: Float64Array
}

export function isotonicFit(x: ArrayLike<number>, y: ArrayLike<number>, w?: ArrayLike<number>): IsotonicModel {
  const n = x.length
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => x[a] - x[b] || a - b)
  // Blocks as a stack: value (weighted mean), weight, and the range of distinct-x slots covered.
  const xs: number[] = []
  const val: number[] = []
  const wt: number[] = []
  const first: number[] = []
  for (const i of order) {
    const wi = w === undefined ? 1 : w[i]
    if (xs.length > 0 && xs[xs.length - 1] === x[i]) {
      // Same x as the previous slot: pool into the top block.
      const k = val.length - 1
      val[k] = (val[k] * wt[k] + y[i] * wi) / (wt[k] + wi)
      wt[k] += wi
    } else {
      xs.push(x[i])
      val.push(y[i])
      wt.push(wi)
      first.push(xs.length - 1)
    }
    while (val.length > 1 && val[val.length - 2] > val[val.length - 1]) {
      const b = val.length - 1
      val[b - 1] = (val[b - 1] * wt[b - 1] + val[b] * wt[b]) / (wt[b - 1] + wt[b])
      wt[b - 1] += wt[b]
      val.pop()
      wt.pop()
      first.pop()
    }
  }
  const fx = Float64Array.from(xs)
  const fy = new Float64Array(xs.length)
  for (let b = 0; b < val.length; b++) {
    const end = b + 1 < first.length ? first[b + 1] : xs.length
    fy.fill(val[b], first[b], end)
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
