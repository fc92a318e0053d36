import { describe, expect, it } from 'vitest'
import type { Trace } from '@shared/trace'
import {
  buildTallies, fitAggregator, HYPER_NAMES, looInfluence, METHODS, MethodRefused, runEvaluate, runPosterior, SeatIndex, type Hyper, type Method
} from '../../../src/main/engine/index'
import { council, m, trace } from './helpers'

const FIXED: Record<Method, Hyper> = {
  majority: {}, 'majority-final': {}, 'best-seat': {}, gated: {}, 'ds-em': {}, 'ds-em-full': {},
  shared: { b: 0.6, s: 8 }, 'per-agent': { b: 0.65, kappa: 2, s: 16 }, tempered: { b: 0.7, kappa: 1, s: 32, tau: 0.5 }, confusion: { lambda: 8, tau: 0.75 },
  'standing-vote': { b: 0.7, kappa: 1 }
}

describe('public API (index.ts)', () => {
  it('lists the methods and their hyperparameters in the contract order', () => {
    expect(METHODS).toEqual(['majority', 'majority-final', 'best-seat', 'gated', 'ds-em', 'ds-em-full', 'shared', 'per-agent', 'tempered', 'confusion', 'standing-vote'])
    expect(HYPER_NAMES).toEqual({
      majority: [], 'majority-final': [], 'best-seat': [], gated: [], 'ds-em': [], 'ds-em-full': [], shared: ['b', 's'], 'per-agent': ['b', 'kappa', 's'],
      tempered: ['b', 'kappa', 's', 'tau'], confusion: ['lambda', 'tau'], 'standing-vote': ['b', 'kappa']
    })
  })

  it('runPosterior: input order, candidate-keyed posteriors, weights for the seats that moved', () => {
    const cal = council({ n: 60, seed: 1, reliabilities: [0.8, 0.7, 0.3], prefix: 'c' })
    const t: Trace = { ...trace('z', ['c0', 'c1'], [m('1', 0, 'S1', 'propose', { answer: 'c1' }), m('2', 0, 'S9', 'abstain')]), seats: [{ id: 'S1' }, { id: 'S2' }, { id: 'S9' }] }
    const traces = [t, ...council({ n: 5, seed: 2, reliabilities: [0.8, 0.7, 0.3] })]
    for (const method of METHODS) {
      const out = runPosterior({ method, traces, calibration: cal, hyper: FIXED[method], seed: 0 })
      expect(out.map((o) => o.task)).toEqual(traces.map((x) => x.task))
      for (const o of out) {
        expect(Object.keys(o.posterior)).toEqual(['c0', 'c1'])
        expect(Object.values(o.posterior).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 14)
        expect(['c0', 'c1']).toContain(o.answer)
      }
      const baseline = method.startsWith('majority') || method === 'best-seat' || method === 'gated' || method.startsWith('ds-em')
      expect(Object.keys(out[0].weights)).toEqual(baseline ? [] : ['S1', 'S9']) // S2 never moved
      if (!baseline) expect(out[0].weights.S3).toBeUndefined()
    }
  })

  it('CV-selects when hyper is null; validates a given hyper', () => {
    const cal = council({ n: 60, seed: 1, reliabilities: [0.8, 0.7, 0.3], prefix: 'c' })
    const traces = council({ n: 5, seed: 2, reliabilities: [0.8, 0.7, 0.3] })
    expect(runPosterior({ method: 'per-agent', traces, calibration: cal, hyper: null, seed: 0 })).toHaveLength(5)
    const run = (method: Method, hyper: Hyper) => () => runPosterior({ method, traces, calibration: cal, hyper, seed: 0 })
    expect(run('per-agent', { b: 0.6, s: 8 })).toThrow(RangeError) // partial
    expect(run('shared', { b: 0.6, s: 8, tau: 1 })).toThrow(RangeError) // unused name
    expect(run('shared', { b: 1.2, s: 8 })).toThrow(RangeError)
    expect(run('majority', { b: 0.6 })).toThrow(RangeError)
    expect(() => runPosterior({ method: 'per-agent', traces, calibration: [], hyper: null, seed: 0 })).toThrow(MethodRefused)
  })

  it('posteriors are bit-for-bit invariant to rewritten confidence and text (BDA Property 3)', () => {
    const cal = council({ n: 80, seed: 3, reliabilities: [0.75, 0.65, 0.35], K: 3, prefix: 'c' })
    const traces = council({ n: 40, seed: 4, reliabilities: [0.75, 0.65, 0.35], K: 3 })
    const rewrite = (ts: Trace[]) => ts.map((t) => ({ ...t, moves: t.moves.map((mv, i) => ({ ...mv, confidence: (i * 0.37) % 1, text: `rewritten ${i} ${'!'.repeat(i % 5)}`, note: 'extra' })) }))
    for (const method of METHODS) {
      for (const hyper of [FIXED[method], null]) {
        const a = runPosterior({ method, traces, calibration: cal, hyper, seed: 0 })
        const b = runPosterior({ method, traces: rewrite(traces), calibration: rewrite(cal), hyper, seed: 0 })
        expect(JSON.stringify(b)).toBe(JSON.stringify(a))
      }
    }
  })

  it('runEvaluate: one selected object per non-empty outer fold; refusals as objects', () => {
    const traces = council({ n: 60, seed: 6, reliabilities: [0.8, 0.7, 0.3] })
    const r = runEvaluate({ method: 'shared', traces, folds: 5, seed: 0 })
    if ('refused' in r) throw new Error(r.refused)
    expect(r.selected).toHaveLength(5)
    for (const h of r.selected) expect(Object.keys(h)).toEqual(['b', 's'])
    for (const k of ['accuracy', 'brier', 'nll', 'eceEw', 'eceEm'] as const) expect(Number.isFinite(r[k])).toBe(true)
    const maj = runEvaluate({ method: 'majority', traces, folds: 5, seed: 0 })
    expect('selected' in maj && maj.selected).toEqual([{}, {}, {}, {}, {}])
    const unlabeled = traces.map((t) => ({ ...t, gold: null }))
    expect(runEvaluate({ method: 'per-agent', traces: unlabeled, folds: 5, seed: 0 })).toEqual({ method: 'per-agent', refused: 'no task of the file has gold' })
  })

  it('posteriorAt at round cut t equals the posterior of the trace truncated to rounds ≤ t', () => {
    const seats = new SeatIndex()
    const L = council({ n: 100, seed: 7, reliabilities: [0.8, 0.6, 0.4], K: 3, prefix: 'c' }).map((t) => buildTallies(t, seats))
    for (const method of ['tempered', 'confusion', 'majority', 'majority-final', 'best-seat'] as const) {
      const agg = fitAggregator(method, L, FIXED[method], 0)
      for (const tr of council({ n: 10, seed: 8, reliabilities: [0.8, 0.6, 0.4], K: 3 })) {
        const full = buildTallies(tr, seats)
        for (const t of [0, 1, 2, 9]) {
          const cut = buildTallies({ ...tr, moves: tr.moves.filter((mv) => mv.round <= t) }, seats)
          expect(Array.from(agg.posteriorAt(full, t))).toEqual(Array.from(agg.posteriorAt(cut)))
        }
      }
    }
  })

  it('leave-one-seat-out influence: the same fit with that seat\'s endorsements dropped', () => {
    const seats = new SeatIndex()
    const L = council({ n: 100, seed: 9, reliabilities: [0.8, 0.6, 0.2], prefix: 'c' }).map((t) => buildTallies(t, seats))
    const agg = fitAggregator('per-agent', L, FIXED['per-agent'], 0)
    const moves = [m('1', 0, 'S1', 'propose', { answer: 'c0' }), m('2', 0, 'S2', 'propose', { answer: 'c1' }), m('3', 0, 'S3', 'propose', { answer: 'c1' }), m('4', 1, 'S3', 'challenge', { target: '1' })]
    const t = buildTallies(trace('q', ['c0', 'c1'], moves), seats)
    const inf = looInfluence(agg, t)
    expect(inf.map((x) => x.seat)).toEqual(['S1', 'S2', 'S3'])
    // nobody targets S2's or S3's moves: dropping them equals removing their moves
    const without = (seat: string) => agg.posteriorAt(buildTallies(trace('q', ['c0', 'c1'], moves.filter((mv) => mv.seat !== seat)), seats))
    expect(Array.from(inf[1].posterior)).toEqual(Array.from(without('S2')))
    expect(Array.from(inf[2].posterior)).toEqual(Array.from(without('S3')))
    // S3 is adversarial (w < 0), and its evidence moves the posterior
    expect(agg.weights(t).S3).toBeLessThan(0)
    expect(inf[2].shift).toBeGreaterThan(0)
  })
})
