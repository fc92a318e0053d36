import { describe, expect, it } from 'vitest'
import {
  choleskySolve,
  fitLogisticSpline,
  fitSmoother,
  isotonicOnSites,
  quantileKnots,
  sortedQuantile,
  SplineBasis
} from '../../../src/main/engine/certificate'
import { createRng } from '../../../src/main/sim/prng'

describe('B-spline basis (docs/engine.md §8.5)', () => {
  it('quantile knots follow numpy linear interpolation and drop duplicates', () => {
    expect(sortedQuantile([1, 2, 3, 4], 0.5)).toBe(2.5)
    // Ten values, 8 quantiles at positions 9·j/7: all but the last two land on the zeros.
    const knots = quantileKnots([0, 0, 0, 0, 0, 0, 0, 0, 1, 2], 8)
    expect(knots.length).toBe(3)
    expect(knots[0]).toBe(0)
    expect(knots[1]).toBeCloseTo(5 / 7, 12)
    expect(knots[2]).toBe(2)
  })

  it('is a partition of unity on the base interval with 4 non-zero cubic pieces', () => {
    const basis = new SplineBasis(Float64Array.from([0, 0.1, 0.3, 0.35, 0.6, 0.8, 0.9, 1]))
    expect(basis.size).toBe(10)
    const out = new Float64Array(4)
    for (let i = 0; i <= 200; i++) {
      const x = i / 200
      basis.evaluate(x, out)
      expect(out.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12)
      for (const v of out) expect(v).toBeGreaterThanOrEqual(-1e-15)
    }
    // At the last knot the last span is used (closed right end), so the last basis function is live.
    expect(basis.evaluate(1, out)).toBe(basis.size - 4)
    // Uniform cubic B-spline at a knot: (1/6, 4/6, 1/6, 0).
    const uni = new SplineBasis(Float64Array.from([0, 1, 2, 3, 4]))
    uni.evaluate(2, out)
    expect(Array.from(out, (v) => Number(v.toFixed(12)))).toEqual([Number((1 / 6).toFixed(12)), Number((4 / 6).toFixed(12)), Number((1 / 6).toFixed(12)), 0])
  })
})

describe('Cholesky solve', () => {
  it('solves an SPD system and refuses an indefinite one', () => {
    const A = Float64Array.from([4, 2, 0.6, 2, 5, 1, 0.6, 1, 3])
    const x = choleskySolve(A, 3, Float64Array.from([1, 2, 3]))
    expect(x).not.toBeNull()
    const r = [0, 1, 2].map((i) => A[i * 3] * x![0] + A[i * 3 + 1] * x![1] + A[i * 3 + 2] * x![2])
    expect(r[0]).toBeCloseTo(1, 12)
    expect(r[1]).toBeCloseTo(2, 12)
    expect(r[2]).toBeCloseTo(3, 12)
    expect(choleskySolve(Float64Array.from([1, 2, 2, 1]), 2, Float64Array.from([1, 1]))).toBeNull()
  })
})

describe('isotonic fallback (PAVA, docs/engine.md §8.5)', () => {
  it('pools violators with weights and pools equal x first', () => {
    // x: 0.1 (2 tasks, 2 right), 0.2 (1, 0), 0.3 (1, 1), 0.2 again (1, 1) → equal x pooled to 0.2: (2, 1)
    const fit = isotonicOnSites(Float64Array.from([0.1, 0.2, 0.3, 0.2]), Float64Array.from([2, 1, 1, 1]), Float64Array.from([2, 0, 1, 1]))
    // Groups: 0.1 → 1.0 (w 2), 0.2 → 0.5 (w 2), 0.3 → 1 (w 1); violation 1.0 > 0.5 → pool (3/4, w 4)
    expect(Array.from(fit)).toEqual([0.75, 0.75, 1, 0.75])
  })

  it('is non-decreasing and keeps an already monotone sequence', () => {
    expect(Array.from(isotonicOnSites(Float64Array.from([1, 2, 3]), Float64Array.from([1, 1, 1]), Float64Array.from([0, 0.5, 1])))).toEqual([0, 0.5, 1])
  })
})

describe('additive logistic spline (docs/engine.md §8.5; sklearn C = 1 convention)', () => {
  it('satisfies the optimality conditions: unpenalised intercept ⇒ Σ fitted = Σ Z; penalised gradient = 0', () => {
    const rng = createRng(11)
    const n = 3000
    const x1 = new Float64Array(n)
    const x2 = new Float64Array(n)
    const y = new Float64Array(n)
    for (let i = 0; i < n; i++) {
      x1[i] = rng.next()
      x2[i] = rng.next() * x1[i]
      const eta = -2 + 5 * x1[i] * x1[i] + 1.5 * x2[i]
      y[i] = rng.chance(1 / (1 + Math.exp(-eta))) ? 1 : 0
    }
    const ones = new Float64Array(n).fill(1)
    const s1 = Float64Array.from(x1).sort()
    const s2 = Float64Array.from(x2).sort()
    const fit = fitLogisticSpline(x1, x2, ones, y, s1, s2)
    expect(fit.basis1.size).toBe(10)
    expect(fit.basis2.size).toBe(10)
    let sumP = 0
    let sumY = 0
    for (let i = 0; i < n; i++) {
      sumP += fit.fitted[i]
      sumY += y[i]
      expect(fit.predict(x1[i], x2[i])).toBeCloseTo(fit.fitted[i], 12)
    }
    expect(sumP).toBeCloseTo(sumY, 6)
    // ∂J/∂w_j = w_j + Σ_i (p_i − y_i)·B_j(x_i) = 0 for every penalised weight.
    const buf = new Float64Array(4)
    const g = new Float64Array(fit.weights.length)
    for (let i = 0; i < n; i++) {
      const r = fit.fitted[i] - y[i]
      const f1 = fit.basis1.evaluate(x1[i], buf)
      for (let a = 0; a < 4; a++) g[1 + f1 + a] += r * buf[a]
      const f2 = fit.basis2.evaluate(x2[i], buf)
      for (let b = 0; b < 4; b++) g[1 + fit.basis1.size + f2 + b] += r * buf[b]
    }
    for (let j = 1; j < g.length; j++) expect(Math.abs(g[j] + fit.weights[j])).toBeLessThan(1e-6)
    // And it tracks the true curve: fitted probability rises with p1.
    expect(fit.predict(0.95, 0.5)).toBeGreaterThan(fit.predict(0.2, 0.1) + 0.5)
  })

  it('site de-duplication is exact: grouped and per-task fits agree', () => {
    const x1 = Float64Array.from([0.1, 0.1, 0.3, 0.5, 0.5, 0.7, 0.9, 0.9])
    const x2 = Float64Array.from([0.2, 0.2, 0.1, 0.4, 0.4, 0.6, 0.8, 0.8])
    const y = Float64Array.from([0, 1, 0, 1, 1, 0, 1, 1])
    const s1 = Float64Array.from(x1).sort()
    const s2 = Float64Array.from(x2).sort()
    const full = fitLogisticSpline(x1, x2, new Float64Array(8).fill(1), y, s1, s2)
    const grouped = fitLogisticSpline(
      Float64Array.from([0.1, 0.3, 0.5, 0.7, 0.9]),
      Float64Array.from([0.2, 0.1, 0.4, 0.6, 0.8]),
      Float64Array.from([2, 1, 2, 1, 2]),
      Float64Array.from([1, 0, 2, 0, 2]),
      s1,
      s2
    )
    for (let j = 0; j < full.weights.length; j++) expect(grouped.weights[j]).toBeCloseTo(full.weights[j], 8)
  })

  it('chooses isotonic below 4 distinct values and constant when all Z agree', () => {
    const cx = Int32Array.from([1, 2, 3, 1, 2, 3])
    const cy = Int32Array.from([1, 2, 3, 4, 5, 6])
    expect(fitSmoother(cx, cy, Uint8Array.from([0, 1, 1, 0, 1, 1]), 10).kind).toBe('isotonic')
    expect(fitSmoother(cx, cy, Uint8Array.from([1, 1, 1, 1, 1, 1]), 10).kind).toBe('constant')
    const cx4 = Int32Array.from([1, 2, 3, 4, 5, 6])
    expect(fitSmoother(cx4, cy, Uint8Array.from([0, 1, 0, 1, 1, 1]), 10).kind).toBe('spline')
  })
})
