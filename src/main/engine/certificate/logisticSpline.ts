import { SplineBasis, quantileKnots } from './bspline'
import { choleskySolve } from './cholesky'

/**
 * Additive logistic spline smoother (docs/engine.md §8.5; AoD C.1, "logistic GAM"):
 *
 *     logit q̃(u) = w0 + Σ_a w1_a·B1_a(p1) + Σ_b w2_b·B2_b(Δ)
 *
 * cubic B-splines with up to 8 quantile knots per normalised coordinate, fitted by minimising
 *
 *     J(w) = ½‖w_{1..}‖² + C · Σ_i [ ln(1 + e^{η_i}) − Z_i·η_i ],   C = 1,
 *
 * scikit-learn's LogisticRegression convention (the penalty on the weights, C on the loss, the
 * intercept w0 unpenalised). Newton/IRLS with step halving; each step is a Cholesky solve of the
 * (1 + #basis)² ≈ 21×21 Hessian.
 *
 * The fit runs on de-duplicated sites (distinct states, with multiplicity `count` and number of
 * correct `sumY`): the loss is additive over tasks and identical states share a design row, so
 * this is exact and makes discrete states cheap.
 */
export interface LogisticSplineFit {
  /** q̃ at each fitting site. */
  readonly fitted: Float64Array
  /** Weights: [w0, w1_0.., w2_0..]. */
  readonly weights: Float64Array
  readonly basis1: SplineBasis
  readonly basis2: SplineBasis
  readonly iterations: number
  /** q̃ at an arbitrary normalised point. */
  predict(x1: number, x2: number): number
}

export interface LogisticSplineOptions {
  /** Inverse penalty strength on the loss (default 1, AoD App. L). */
  readonly C?: number
  /** Knots per coordinate before de-duplication (default 8). */
  readonly maxKnots?: number
  readonly maxIterations?: number
}

/** ln(1 + e^η) without overflow. */
function softplus(eta: number): number {
  return eta > 0 ? eta + Math.log1p(Math.exp(-eta)) : Math.log1p(Math.exp(eta))
}

function sigmoid(eta: number): number {
  if (eta >= 0) return 1 / (1 + Math.exp(-eta))
  const e = Math.exp(eta)
  return e / (1 + e)
}

/**
 * @param x1 site values of the normalised p1; @param x2 of the normalised Δ
 * @param count tasks per site; @param sumY correct tasks per site
 * @param sorted1 @param sorted2 the per-TASK normalised coordinates, ascending (knots are quantiles
 *        of the data with multiplicity, not of the distinct sites)
 */
export function fitLogisticSpline(
  x1: Float64Array,
  x2: Float64Array,
  count: Float64Array,
  sumY: Float64Array,
  sorted1: Float64Array,
  sorted2: Float64Array,
  options: LogisticSplineOptions = {}
): LogisticSplineFit {
  const C = options.C ?? 1
  const maxKnots = options.maxKnots ?? 8
  const maxIterations = options.maxIterations ?? 100
  const basis1 = new SplineBasis(quantileKnots(sorted1, maxKnots))
  const basis2 = new SplineBasis(quantileKnots(sorted2, maxKnots))
  const nb1 = basis1.size
  const P = 1 + nb1 + basis2.size
  const S = x1.length
  const NNZ = 9 // intercept + 4 + 4 non-zeros per design row

  // Sparse design rows: column index and value of each non-zero.
  const col = new Int32Array(S * NNZ)
  const val = new Float64Array(S * NNZ)
  const tmp = new Float64Array(4)
  for (let s = 0; s < S; s++) {
    const o = s * NNZ
    col[o] = 0
    val[o] = 1
    const f1 = basis1.evaluate(x1[s], tmp)
    for (let a = 0; a < 4; a++) {
      col[o + 1 + a] = 1 + f1 + a
      val[o + 1 + a] = tmp[a]
    }
    const f2 = basis2.evaluate(x2[s], tmp)
    for (let b = 0; b < 4; b++) {
      col[o + 5 + b] = 1 + nb1 + f2 + b
      val[o + 5 + b] = tmp[b]
    }
  }

  let nTot = 0
  let yTot = 0
  for (let s = 0; s < S; s++) {
    nTot += count[s]
    yTot += sumY[s]
  }
  const w = new Float64Array(P)
  // Start from the intercept-only optimum: fewer Newton steps, and η stays finite.
  const mean = Math.min(Math.max(yTot / nTot, 1e-6), 1 - 1e-6)
  w[0] = Math.log(mean / (1 - mean))

  const eta = new Float64Array(S)
  const computeEta = (weights: Float64Array): void => {
    for (let s = 0; s < S; s++) {
      const o = s * NNZ
      let e = 0
      for (let j = 0; j < NNZ; j++) e += val[o + j] * weights[col[o + j]]
      eta[s] = e
    }
  }
  const objective = (weights: Float64Array): number => {
    computeEta(weights)
    let pen = 0
    for (let j = 1; j < P; j++) pen += weights[j] * weights[j]
    let loss = 0
    for (let s = 0; s < S; s++) loss += count[s] * softplus(eta[s]) - sumY[s] * eta[s]
    return 0.5 * pen + C * loss
  }

  const grad = new Float64Array(P)
  const H = new Float64Array(P * P)
  const trial = new Float64Array(P)
  let J = objective(w)
  let iterations = 0
  for (; iterations < maxIterations; iterations++) {
    // eta is current for w (objective() last evaluated at w).
    grad.fill(0)
    H.fill(0)
    for (let j = 1; j < P; j++) {
      grad[j] = w[j]
      H[j * P + j] = 1
    }
    for (let s = 0; s < S; s++) {
      const p = sigmoid(eta[s])
      const r = C * (count[s] * p - sumY[s])
      const h = C * count[s] * p * (1 - p)
      const o = s * NNZ
      for (let a = 0; a < NNZ; a++) {
        const ca = col[o + a]
        const va = val[o + a]
        grad[ca] += r * va
        if (h === 0 || va === 0) continue
        const hv = h * va
        for (let b = 0; b < NNZ; b++) H[ca * P + col[o + b]] += hv * val[o + b]
      }
    }
    let step = choleskySolve(H, P, grad)
    if (step === null) {
      // Saturated probabilities can leave the unpenalised intercept direction flat; a tiny ridge
      // on it keeps the Newton system solvable without changing the optimum noticeably.
      H[0] += 1e-8 * Math.max(1, nTot)
      step = choleskySolve(H, P, grad)
      if (step === null) break
    }
    let maxStep = 0
    for (let j = 0; j < P; j++) maxStep = Math.max(maxStep, Math.abs(step[j]))
    let t = 1
    let improved = false
    for (let half = 0; half < 40; half++) {
      for (let j = 0; j < P; j++) trial[j] = w[j] - t * step[j]
      const Jt = objective(trial)
      if (Jt <= J) {
        w.set(trial)
        const gain = J - Jt
        J = Jt
        improved = gain > 0
        break
      }
      t /= 2
    }
    if (!improved) {
      computeEta(w)
      break
    }
    if (maxStep * t < 1e-10) break
  }
  computeEta(w)
  const fitted = new Float64Array(S)
  for (let s = 0; s < S; s++) fitted[s] = sigmoid(eta[s])

  const weights = Float64Array.from(w)
  const nb2Off = 1 + nb1
  const predict = (a: number, b: number): number => {
    const buf = new Float64Array(4)
    let e = weights[0]
    const f1 = basis1.evaluate(a, buf)
    for (let j = 0; j < 4; j++) e += buf[j] * weights[1 + f1 + j]
    const f2 = basis2.evaluate(b, buf)
    for (let j = 0; j < 4; j++) e += buf[j] * weights[nb2Off + f2 + j]
    return sigmoid(e)
  }
  return { fitted, weights, basis1, basis2, iterations, predict }
}
