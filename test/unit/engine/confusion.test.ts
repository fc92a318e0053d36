import { describe, expect, it } from 'vitest'
import { ConfusionAggregator, confusionCounts, lnConfusion } from '../../../src/main/engine/confusion'
import { fitAggregator } from '../../../src/main/engine/fit'
import { MethodRefused } from '../../../src/main/engine/methods'
import { runEvaluate } from '../../../src/main/engine/run-evaluate'
import { runPosterior } from '../../../src/main/engine/run-posterior'
import { SeatIndex } from '../../../src/main/engine/seat-index'
import { buildTallies } from '../../../src/main/engine/tallies'
import { council, m, trace, votes } from './helpers'

describe('tempered confusion model (docs/engine.md §5)', () => {
  it('P_i(g\'|g) = (n + λ·m)/(Σn + λ) with the one-coin-centred prior mean', () => {
    const P = lnConfusion(Float64Array.from([3, 1, 0, 2]), 0.75, 2, 2).map(Math.exp)
    // row g=0: (3 + 1.5)/6, (1 + 0.5)/6; row g=1: (0 + 0.5)/4, (2 + 1.5)/4
    expect([...P].map((x) => +x.toFixed(12))).toEqual([0.75, 0.25, 0.125, 0.875])
    const unseen = lnConfusion(null, 0.6, 8, 3).map(Math.exp)
    expect([...unseen].map((x) => +x.toFixed(12))).toEqual([0.6, 0.2, 0.2, 0.2, 0.6, 0.2, 0.2, 0.2, 0.6])
  })

  it('hand-computed posterior, π_0 from the labels, and the displayed weight', () => {
    const seats = new SeatIndex()
    const L = [buildTallies(votes('l', ['a', 'b'], [['A', 'a']], 'a'), seats)]
    const agg = new ConfusionAggregator({ lambda: 2, tau: 1 }, confusionCounts(L, ['a', 'b']))
    // r_A = 2/3; P_A(·|a) = (7/9, 2/9), P_A(·|b) = (1/3, 2/3); π_0 = (2/3, 1/3).
    const p = agg.posteriorAt(buildTallies(votes('s', ['a', 'b'], [['A', 'b']]), seats))
    expect(p[0]).toBeCloseTo(0.4, 14) // (2/3·2/9) / (2/3·2/9 + 1/3·2/3)
    expect(agg.weightOf(seats.find('A'))).toBeCloseTo((Math.log((7 / 9) / (1 / 3)) + Math.log((2 / 3) / (2 / 9))) / 2, 14)
    // τ scales the likelihood, not π_0
    const hot = new ConfusionAggregator({ lambda: 2, tau: 0.5 }, confusionCounts(L, ['a', 'b']))
    const q = hot.posteriorAt(buildTallies(votes('s2', ['a', 'b'], [['A', 'b']]), seats))
    const la = Math.log(2 / 3) + 0.5 * Math.log(2 / 9)
    const lb = Math.log(1 / 3) + 0.5 * Math.log(2 / 3)
    expect(q[0]).toBeCloseTo(Math.exp(la) / (Math.exp(la) + Math.exp(lb)), 14)
  })

  it('a challenge expands to every other cell', () => {
    const seats = new SeatIndex()
    const L = [buildTallies(trace('l', ['a', 'b', 'c'], [m('1', 0, 'A', 'propose', { answer: 'b' }), m('2', 1, 'B', 'challenge', { target: '1' })], 'a'), seats)]
    const counts = confusionCounts(L, ['a', 'b', 'c'])
    expect([...counts.n[seats.find('B')]]).toEqual([1, 0, 1, 0, 0, 0, 0, 0, 0]) // gold a: cells a and c
    expect([...counts.n[seats.find('A')]]).toEqual([0, 1, 0, 0, 0, 0, 0, 0, 0])
  })

  it('cells are keyed by label: candidate order does not matter', () => {
    const cal = council({ n: 80, seed: 4, reliabilities: [0.8, 0.6, 0.3], K: 3, prefix: 'c' })
    const seats = new SeatIndex()
    const L = cal.map((t) => buildTallies(t, seats))
    const agg = fitAggregator('confusion', L, { lambda: 8, tau: 0.75 }, 0)
    const t = council({ n: 1, seed: 5, reliabilities: [0.8, 0.6, 0.3], K: 3 })[0]
    const p = agg.posteriorAt(buildTallies(t, seats))
    const rev = agg.posteriorAt(buildTallies({ ...t, candidates: [...t.candidates].reverse() }, seats))
    for (let g = 0; g < 3; g++) expect(rev[2 - g]).toBeCloseTo(p[g], 15)
  })

  it('is refused on mixed candidate sets, naming the first differing task (calibration first)', () => {
    const a = votes('a', ['x', 'y'], [['A', 'x']], 'x')
    const b = votes('b', ['y', 'x'], [['A', 'x']], 'x')
    const c = votes('c', ['x', 'z'], [['A', 'x']], 'x')
    const d = votes('d', ['x', 'y', 'z'], [['A', 'x']])
    const run = (calibration: typeof a[], traces: typeof a[]) => () => runPosterior({ method: 'confusion', traces, calibration, hyper: { lambda: 2, tau: 1 }, seed: 0 })
    expect(run([a, b], [d])).toThrow(MethodRefused)
    expect(run([a, b], [d])).toThrow(/task "d"/)
    expect(run([a, c], [d])).toThrow(/task "c"/)
    expect(run([a, b], [b, a])).not.toThrow()
    const ev = runEvaluate({ method: 'confusion', traces: [a, b, c], folds: 5, seed: 0 })
    expect('refused' in ev && ev.refused).toMatch(/task "c"/)
    // one-coin methods accept mixed sets
    expect(() => runPosterior({ method: 'per-agent', traces: [d], calibration: [a, c], hyper: { b: 0.6, kappa: 1, s: 8 }, seed: 0 })).not.toThrow()
  })

  it('a learned off-diagonal inverts a persistent adversary at K = 3', () => {
    const cal = council({ n: 300, seed: 8, reliabilities: [0.6, 0.6, 0.5], adversaries: [2], K: 3, prefix: 'c' })
    const traces = council({ n: 300, seed: 9, reliabilities: [0.6, 0.6, 0.5], adversaries: [2], K: 3 })
    const out = runPosterior({ method: 'confusion', traces, calibration: cal, hyper: null, seed: 0 })
    const maj = runPosterior({ method: 'majority', traces, calibration: cal, hyper: null, seed: 0 })
    const acc = (o: typeof out) => o.filter((x, i) => x.answer === traces[i].gold).length / o.length
    expect(acc(out)).toBeGreaterThan(acc(maj))
    expect(out[0].weights.S3).toBeLessThan(0)
  })
})
