import { fitLogisticSpline } from './logisticSpline'
import { isotonicFit, isotonicPredict } from '../isotonic'
import { buildSites, distinctCount } from './sites'

/**
 * The pilot smoother q̃_t on D_mod (docs/engine.md §8.5; AoD C.1–C.2). It only feeds the empirical
 * modulus ω̂_t, i.e. it matters only where the k-NN radius is > 0.
 * - `spline`: additive logistic spline (the default);
 * - `isotonic`: PAVA on p1 when either normalised coordinate has fewer than 4 distinct values in
 *   D_mod (a cubic spline with < 4 support points is not identifiable in a useful way);
 * - `constant`: all Z equal (or D_mod empty): q̃ is constant, the logistic intercept would run off
 *   to ±∞, and every pair difference — hence ω̂ — is 0.
 */
export type SmootherKind = 'spline' | 'isotonic' | 'constant'

export interface SmootherFit {
  readonly kind: SmootherKind
  /** q̃ at each input row. */
  readonly q: Float64Array
}

/**
 * @param cx @param cy integer ECDF counts of the D_mod rows at this round; @param scale |C|
 * @param z Z_t of those rows
 */
export function fitSmoother(cx: Int32Array, cy: Int32Array, z: Uint8Array, scale: number): SmootherFit {
  const n = cx.length
  const q = new Float64Array(n)
  let right = 0
  for (let i = 0; i < n; i++) right += z[i]
  if (n === 0 || right === 0 || right === n) {
    q.fill(n === 0 ? 0 : right / n)
    return { kind: 'constant', q }
  }
  const sites = buildSites(cx, cy, z, scale)
  if (distinctCount(cx) < 4 || distinctCount(cy) < 4) {
    const fit = isotonicOnSites(sites.x, sites.count, sites.sumZ)
    for (let i = 0; i < n; i++) q[i] = fit[sites.siteOf[i]]
    return { kind: 'isotonic', q }
  }
  const sorted1 = new Float64Array(n)
  const sorted2 = new Float64Array(n)
  for (let i = 0; i < n; i++) {
    sorted1[i] = cx[i] / scale
    sorted2[i] = cy[i] / scale
  }
  sorted1.sort()
  sorted2.sort()
  const fit = fitLogisticSpline(sites.x, sites.y, sites.count, sites.sumZ, sorted1, sorted2)
  for (let i = 0; i < n; i++) q[i] = fit.fitted[sites.siteOf[i]]
  return { kind: 'spline', q }
}

/**
 * The isotonic fallback on de-duplicated sites (AoD C.2): the engine's weighted PAVA (../isotonic.ts)
 * with each site's share of correct tasks weighted by its task count — the same least-squares fit
 * as on the tasks themselves. Returns q̃ at each site (input order); a site's x is one of the fit's
 * knots, where `isotonicPredict` returns the fitted value exactly.
 */
export function isotonicOnSites(x: Float64Array, count: Float64Array, sumZ: Float64Array): Float64Array {
  const y = new Float64Array(x.length)
  for (let s = 0; s < x.length; s++) y[s] = count[s] > 0 ? sumZ[s] / count[s] : 0
  const model = isotonicFit(x, y, count)
  return x.map((v) => isotonicPredict(model, v))
}
