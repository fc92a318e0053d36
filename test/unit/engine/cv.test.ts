import { describe, expect, it } from 'vitest'
import { cvSelect, foldsOf, selectIndex } from '../../../src/main/engine/cv-select'
import { fitAggregator } from '../../../src/main/engine/fit'
import { stratifiedFolds } from '../../../src/main/engine/folds'
import { hashHex } from '../../../src/main/engine/hash'
import { gridPoints, MethodRefused } from '../../../src/main/engine/methods'
import { nestedCv, outOfFoldFits } from '../../../src/main/engine/nested-cv'
import { answerAt, tieBreak } from '../../../src/main/engine/tie-break'
import { brierOne } from '../../../src/main/engine/scores'
import { SeatIndex } from '../../../src/main/engine/seat-index'
import { buildTallies, type TaskTallies } from '../../../src/main/engine/tallies'
import { council, rng, votes } from './helpers'

const tallies = (traces: ReturnType<typeof council>): TaskTallies[] => {
  const seats = new SeatIndex()
  return traces.map((t) => buildTallies(t, seats))
}

describe('folds (docs/engine.md §7)', () => {
  const rand = rng(5)
  const items = Array.from({ length: 103 }, (_, i) => ({ task: `task-${i}`, gold: ['b', 'a', 'B', 'c'][Math.floor(rand() * 4)] }))

  it('are deterministic, independent of input order, and change with the seed', () => {
    const f = stratifiedFolds(items, 5, 0)
    expect([...stratifiedFolds(items, 5, 0)]).toEqual([...f])
    const rev = [...items].reverse()
    const fr = stratifiedFolds(rev, 5, 0)
    rev.forEach((x, i) => expect(fr[i]).toBe(f[items.indexOf(x)]))
    expect([...stratifiedFolds(items, 5, 1)]).not.toEqual([...f])
  })

  it('deal classes in sorted gold order, tasks by H(seed:fold:task), round-robin', () => {
    const f = stratifiedFolds(items, 5, 7)
    const classes = [...new Set(items.map((x) => x.gold))].sort() // 'B' < 'a' < 'b' < 'c' (UTF-16 order)
    expect(classes).toEqual(['B', 'a', 'b', 'c'])
    const dealt = classes.flatMap((c) => items.filter((x) => x.gold === c).sort((x, y) => (hashHex(`7:fold:${x.task}`) < hashHex(`7:fold:${y.task}`) ? -1 : 1)))
    dealt.forEach((x, pos) => expect(f[items.indexOf(x)]).toBe(pos % 5))
  })

  it('are stratified: within each class fold sizes differ by at most one', () => {
    const f = stratifiedFolds(items, 5, 3)
    for (const c of ['a', 'b', 'c', 'B']) {
      const sizes = [0, 0, 0, 0, 0]
      items.forEach((x, i) => x.gold === c && sizes[f[i]]++)
      expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1)
    }
  })
})

describe('CV grid search (docs/engine.md §7)', () => {
  it('grid sizes and order: 72 / 360 / 1440 / 24 points, first name outermost', () => {
    expect(gridPoints('shared')).toHaveLength(72)
    expect(gridPoints('per-agent')).toHaveLength(360)
    expect(gridPoints('tempered')).toHaveLength(1440)
    expect(gridPoints('confusion')).toHaveLength(24)
    expect(gridPoints('tempered').slice(0, 2)).toEqual([{ b: 0.52, kappa: 0, s: 4, tau: 0.25 }, { b: 0.52, kappa: 0, s: 4, tau: 0.5 }])
    expect(gridPoints('confusion')[4]).toEqual({ lambda: 2, tau: 0.25 })
  })

  it('tie rule: the first point within 1e-12 (absolute) of the best', () => {
    expect(selectIndex([0.3, 0.2 + 5e-13, 0.2, 0.2])).toBe(1)
    expect(selectIndex([0.3, 0.2 + 2e-12, 0.2])).toBe(2)
    expect(selectIndex([0.25, 0.25, 0.25])).toBe(0)
  })

  it('ties in practice: no evidence → every point ties → the first; equal seats → κ = 0', () => {
    const empty = tallies([...Array(10)].map((_, i) => ({ task: `e${i}`, candidates: ['x', 'y'], gold: i % 2 ? 'x' : 'y', moves: [] })))
    expect(cvSelect('tempered', empty, 0).hyper).toEqual({ b: 0.52, kappa: 0, s: 4, tau: 0.25 })
    // Every seat has the same record (one right, one wrong per pair of tasks): r_i − r̄ = 0 in every fold.
    const sym = tallies([...Array(20)].map((_, i) => votes(`s${i}`, ['x', 'y'], [['A', 'x'], ['B', 'x'], ['C', 'x']], i % 2 ? 'x' : 'y')))
    expect(cvSelect('per-agent', sym, 0).hyper.kappa).toBe(0)
  })

  it('the pooled OOF Brier equals refitting the aggregator on each training part', () => {
    const L = tallies(council({ n: 120, seed: 9, reliabilities: [0.75, 0.65, 0.3], K: 3 }))
    const fold = foldsOf(L, 5, 4)
    for (const method of ['per-agent', 'tempered', 'confusion'] as const) {
      const cv = cvSelect(method, L, 4)
      for (const idx of [0, 17, cv.points.length - 1]) {
        let sum = 0
        for (let f = 0; f < 5; f++) {
          const agg = fitAggregator(method, L.filter((_, i) => fold[i] !== f), cv.points[idx], 0, { labels: L[0].candidates })
          L.forEach((t, i) => fold[i] === f && (sum += brierOne(agg.posteriorAt(t), t.K, t.gold)))
        }
        expect(cv.scores[idx]).toBeCloseTo(sum / L.length, 12)
      }
      expect(cv.scores[cv.points.indexOf(cv.hyper)]).toBe(Math.min(...cv.scores))
    }
  })

  it('nested CV: outer folds with seed, inner selection with seed + 1 + j, refit on the training part', () => {
    const L = tallies(council({ n: 150, seed: 21, reliabilities: [0.8, 0.7, 0.25] }))
    const seed = 3
    const res = nestedCv('per-agent', L, 5, seed)
    const outer = foldsOf(L, 5, seed)
    expect([...res.fold]).toEqual([...outer])
    for (let j = 0; j < 5; j++) {
      const train = L.filter((_, i) => outer[i] !== j)
      const hyper = cvSelect('per-agent', train, seed + 1 + j).hyper
      expect(res.selected[j]).toEqual(hyper)
      const agg = fitAggregator('per-agent', train, hyper, seed)
      L.forEach((t, i) => outer[i] === j && expect(Array.from(res.predictions[i].p)).toEqual(Array.from(agg.posteriorAt(t))))
    }
  })

  it('refuses to CV-select without labels; skips empty folds', () => {
    expect(() => cvSelect('shared', [], 0)).toThrow(MethodRefused)
    const three = tallies(council({ n: 3, seed: 1, reliabilities: [0.8, 0.7, 0.6] }))
    expect(Number.isFinite(cvSelect('shared', three, 0).scores[0])).toBe(true)
    expect(nestedCv('shared', three, 5, 0).selected).toHaveLength(3)
  })

  it('out-of-fold fits with fixed hyperparameters (the certificate\'s calibration states) and Ŷ_t', () => {
    const L = tallies(council({ n: 50, seed: 31, reliabilities: [0.8, 0.7, 0.25] }))
    const fixed = { b: 0.6, kappa: 2, s: 16, tau: 0.5 }
    const oof = outOfFoldFits('tempered', L, 5, 2, fixed)
    expect(oof.aggregators.map((a) => a!.hyper)).toEqual(Array(5).fill(fixed))
    const t = L[0]
    const agg = oof.aggregators[oof.fold[0]]!
    for (const round of [0, 1, 2]) expect(answerAt(agg, t, 2, round)).toBe(tieBreak(agg.posteriorAt(t, round), t.K, t.task, 2))
  })
})

