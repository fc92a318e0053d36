import { describe, expect, it } from 'vitest'
import { eceEm, eceEw, equalMassBins, equalMassBinsOf, equalWidthBins } from '../../../src/main/engine/ece'
import { cvIsotonicRecalibrate, isotonicFit, isotonicPredict } from '../../../src/main/engine/isotonic'
import { accuracy, brier, nll, type Prediction } from '../../../src/main/engine/scores'

const P = (p: number[], gold: number, answer: number): Prediction => ({ p, gold, answer })

describe('scores (docs/engine.md §7)', () => {
  const preds = [P([0.7, 0.2, 0.1], 0, 0), P([0.4, 0.4, 0.2], 1, 0), P([0.1, 0.3, 0.6], 1, 2)]

  it('accuracy, multiclass Brier and NLL on a hand-computed example', () => {
    expect(accuracy(preds)).toBeCloseTo(1 / 3, 15)
    // (0.09 + 0.04 + 0.01) + (0.16 + 0.36 + 0.04) + (0.01 + 0.49 + 0.36) = 1.56
    expect(brier(preds)).toBeCloseTo(0.52, 15)
    expect(nll(preds)).toBeCloseTo(-(Math.log(0.7) + Math.log(0.4) + Math.log(0.3)) / 3, 15)
  })

  it('NLL clips probabilities at 1e-12', () => {
    expect(nll([P([1, 0], 1, 0)])).toBeCloseTo(-Math.log(1e-12), 12)
  })

  it('ECE_ew: 10 bins, bin = min(⌊10·conf⌋, 9), on the top-label confidence', () => {
    // confidences 0.7 (right), 0.4 (wrong), 0.6 (wrong): (0.3 + 0.4 + 0.6)/3
    expect(eceEw(preds)).toBeCloseTo(1.3 / 3, 15)
    const bins = equalWidthBins([P([1, 0], 0, 0), P([0.1, 0.1, 0.8], 2, 2), P([0.5, 0.5], 0, 1)])
    expect(bins[9].n).toBe(1) // conf 1.0 → bin 9, not 10
    expect(bins[8].n).toBe(1)
    expect(bins[5].n).toBe(1)
    expect(bins.reduce((a, b) => a + b.n, 0)).toBe(3)
  })

  it('ECE_em: 15 contiguous groups, sizes differ by ≤ 1, the first n mod 15 larger', () => {
    const mk = (n: number) => Array.from({ length: n }, (_, i) => P([0.5 + i / (4 * n), 0.5 - i / (4 * n)], 0, 0))
    expect(equalMassBins(mk(32)).map((b) => b.n)).toEqual([3, 3, ...Array(13).fill(2)])
    expect(equalMassBins(mk(15)).map((b) => b.n)).toEqual(Array(15).fill(1))
    expect(equalMassBins(mk(7)).map((b) => b.n)).toEqual([...Array(7).fill(1), ...Array(8).fill(0)])
    expect(equalMassBins(mk(44)).map((b) => b.n)).toEqual([...Array(14).fill(3), 2])
    // groups are ascending in confidence
    const g = equalMassBins(mk(32))
    for (let i = 1; i < 15; i++) expect(g[i].lo).toBeGreaterThan(g[i - 1].hi)
  })

  it('ECE_em: a stable sort — equal confidences keep input order', () => {
    // 30 predictions at confidence 0.75, the first two correct: with a stable sort they share
    // group 0 → (2/30)·0.25 + (28/30)·0.75; split across groups it would be 0.6833.
    const conf = new Float64Array(30).fill(0.75)
    const correct = Uint8Array.from({ length: 30 }, (_, i) => (i < 2 ? 1 : 0))
    const bins = equalMassBinsOf(conf, correct)
    expect(bins[0].acc).toBe(1)
    const preds30 = Array.from({ length: 30 }, (_, i) => P([0.75, 0.25], i < 2 ? 0 : 1, 0))
    expect(eceEm(preds30)).toBeCloseTo((2 / 30) * 0.25 + (28 / 30) * 0.75, 15)
    expect(eceEm(preds)).toBeCloseTo(1.3 / 3, 15) // n < 15: one member per group
  })
})

describe('isotonic regression (PAVA)', () => {
  it('pools adjacent violators and interpolates like scikit-learn', () => {
    const m = isotonicFit([1, 2, 3, 4, 5], [1, 3, 2, 4, 3.5])
    expect([...m.y]).toEqual([1, 2.5, 2.5, 3.75, 3.75])
    expect(isotonicPredict(m, 1.5)).toBeCloseTo(1.75, 15)
    expect(isotonicPredict(m, 0)).toBe(1)
    expect(isotonicPredict(m, 9)).toBe(3.75)
  })

  it('pools equal x first, honours weights, and is monotone on random data', () => {
    const m = isotonicFit([2, 1, 1], [0, 1, 0])
    expect([...m.x]).toEqual([1, 2])
    expect(m.y[0]).toBeCloseTo(1 / 3, 15)
    expect(m.y[1]).toBeCloseTo(1 / 3, 15)
    expect([...isotonicFit([1, 2], [1, 0], [3, 1]).y]).toEqual([0.75, 0.75])
    let seed = 1
    const r = () => ((seed = (seed * 16807) % 2147483647) / 2147483647)
    const x = Array.from({ length: 200 }, r)
    const f = isotonicFit(x, x.map((v) => (r() < v ? 1 : 0)))
    for (let i = 1; i < f.y.length; i++) expect(f.y[i]).toBeGreaterThanOrEqual(f.y[i - 1])
  })

  it('leak-free CV recalibration maps each fold with a fit on the other folds only', () => {
    const conf = Float64Array.from([0.9, 0.8, 0.7, 0.6, 0.95, 0.55])
    const correct = Uint8Array.from([1, 0, 1, 0, 1, 1])
    const fold = Int32Array.from([0, 0, 1, 1, 2, 2])
    const out = cvIsotonicRecalibrate(conf, correct, fold)
    const m0 = isotonicFit([0.7, 0.6, 0.95, 0.55], [1, 0, 1, 1])
    expect(out[0]).toBe(isotonicPredict(m0, 0.9))
    expect(out[1]).toBe(isotonicPredict(m0, 0.8))
    // fold 0's own labels do not influence fold 0: flip them, same output
    const flipped = cvIsotonicRecalibrate(conf, Uint8Array.from([0, 1, 1, 0, 1, 1]), fold)
    expect(flipped[0]).toBe(out[0])
    expect(flipped[1]).toBe(out[1])
  })
})
