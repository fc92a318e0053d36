import { describe, expect, it } from 'vitest'
import {
  buildTallies, fitAggregator, isotonicFit, METHODS, nestedCv, SeatIndex, selectHyper, tieBreak, type TaskTallies
} from '../../../src/main/engine/index'
import { StandingVoteAggregator } from '../../../src/main/engine/standing/aggregator'
import { recalibrateTop } from '../../../src/main/engine/standing/recalibrate'
import { fitStandingReliabilities } from '../../../src/main/engine/standing/reliability'
import { FEW_SEATS, selectStandingVote } from '../../../src/main/engine/standing/select'
import { council, m, rng, trace } from './helpers'

const NO_RECAL = null

function tallies(traces: ReturnType<typeof council>, seats = new SeatIndex()): TaskTallies[] {
  return traces.map((t) => buildTallies(t, seats))
}

describe('standing vote (docs/engine.md §11)', () => {
  it('is a method of the engine, tuned on (b, κ)', () => {
    expect(METHODS).toContain('standing-vote')
  })

  it('reads each seat once, by its standing answer: a changed mind and repeated votes count as the final word', () => {
    const seats = new SeatIndex()
    const cands = ['x', 'y', 'z']
    // A proposes x, then y; B votes y three times; C proposes z then retracts.
    const changed = buildTallies(trace('t1', cands, [
      m('1', 0, 'A', 'propose', { answer: 'x' }), m('2', 0, 'B', 'vote', { answer: 'y' }), m('3', 0, 'C', 'propose', { answer: 'z' }),
      m('4', 1, 'A', 'propose', { answer: 'y' }), m('5', 1, 'B', 'vote', { answer: 'y' }), m('6', 1, 'B', 'vote', { answer: 'y' }),
      m('7', 1, 'C', 'retract')
    ]), seats)
    const once = buildTallies(trace('t2', cands, [m('1', 0, 'A', 'propose', { answer: 'y' }), m('2', 0, 'B', 'vote', { answer: 'y' })]), seats)
    const rel = { r: Float64Array.of(0.8, 0.8, 0.8), seen: Uint8Array.of(1, 1, 1), rBar: 0.8, evidence: new Float64Array(3) }
    const agg = new StandingVoteAggregator({ b: 0.8, kappa: 0 }, rel, NO_RECAL)
    expect(Array.from(agg.posteriorAt(changed))).toEqual(Array.from(agg.posteriorAt(once)))
    // At round 0 the standing answers are x, y, z: one vote each.
    const r0 = agg.posteriorAt(changed, 0)
    expect(r0[0]).toBeCloseTo(1 / 3, 15)
    expect(r0[2]).toBeCloseTo(1 / 3, 15)
  })

  it('adds w_i = ln(μ_i/(1 − μ_i)) to the candidate a seat stands on, whatever K', () => {
    const seats = new SeatIndex()
    const t = buildTallies(trace('t', ['a', 'b', 'c'], [m('1', 0, 'P', 'propose', { answer: 'a' }), m('2', 0, 'Q', 'propose', { answer: 'b' })]), seats)
    // r̄ = 0.7; κ = 1, b = 0.7 ⇒ μ_P = 0.8, μ_Q = 0.6: weights ln 4 and ln 1.5.
    const rel = { r: Float64Array.of(0.8, 0.6), seen: Uint8Array.of(1, 1), rBar: 0.7, evidence: new Float64Array(2) }
    const agg = new StandingVoteAggregator({ b: 0.7, kappa: 1 }, rel, NO_RECAL)
    const p = agg.posteriorAt(t)
    expect(p[0]).toBeCloseTo(4 / 6.5, 14)
    expect(p[1]).toBeCloseTo(1.5 / 6.5, 14)
    expect(p[2]).toBeCloseTo(1 / 6.5, 14)
    expect(agg.weights(t).P).toBeCloseTo(Math.log(4), 14)
    expect(agg.weights(t).Q).toBeCloseTo(Math.log(1.5), 14)
    // Leave-one-seat-out: without P only Q's vote remains.
    const drop = agg.posteriorAt(t, undefined, 0)
    expect(drop[1]).toBeCloseTo(1.5 / 3.5, 14)
  })

  it('fits reliabilities on standing answers at the last round, Laplace-smoothed; unseen seats get r̄', () => {
    const seats = new SeatIndex()
    const L = [
      buildTallies(trace('1', ['a', 'b'], [m('1', 0, 'A', 'propose', { answer: 'b' }), m('2', 1, 'A', 'propose', { answer: 'a' }), m('3', 0, 'B', 'abstain')], 'a'), seats),
      buildTallies(trace('2', ['a', 'b'], [m('1', 0, 'A', 'vote', { answer: 'a' }), m('2', 0, 'A', 'vote', { answer: 'a' }), m('3', 0, 'B', 'propose', { answer: 'a' })], 'b'), seats)
    ]
    const rel = fitStandingReliabilities(L)
    expect(rel.r[0]).toBeCloseTo((1 + 1) / (2 + 2), 15) // right on task 1 (its final word), wrong on task 2, once each
    expect(rel.r[1]).toBeCloseTo((0 + 1) / (1 + 2), 15) // abstained on 1, wrong on 2
    expect(rel.evidence[0]).toBe(2)
    expect(rel.rBar).toBeCloseTo((0.5 + 1 / 3) / 2, 15)
  })

  it('recalibration moves the top-label probability, keeps the answer and the sum, and never makes a tie', () => {
    const rand = rng(7)
    const iso = isotonicFit(Float64Array.of(0.3, 0.5, 0.7, 0.9), Float64Array.of(0, 0, 1, 1))
    for (let i = 0; i < 2000; i++) {
      const K = 2 + Math.floor(rand() * 5)
      const raw = Float64Array.from({ length: K }, () => rand() ** 3)
      if (i % 7 === 0) raw[1] = raw[0] // exact ties at the top sometimes
      const s = raw.reduce((a, b) => a + b, 0)
      for (let g = 0; g < K; g++) raw[g] /= s
      const before = tieBreak(raw, K, `t${i}`, 0)
      const p = recalibrateTop(Float64Array.from(raw), K, iso)
      expect(p.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12)
      expect(tieBreak(p, K, `t${i}`, 0)).toBe(before)
      for (let g = 0; g < K; g++) expect(p[g]).toBeGreaterThanOrEqual(0)
    }
    // The map is applied: a raw 0.9 (isotonic value 1 there) rises to 1 when K = 2.
    expect(Array.from(recalibrateTop(Float64Array.of(0.9, 0.1), 2, iso))).toEqual([1, 0])
    // A raw 0.5 vs 0.3, 0.2 maps to 0 by the isotonic fit, but is held just above the rescaled runner-up.
    const held = recalibrateTop(Float64Array.of(0.5, 0.3, 0.2), 3, iso)
    expect(held[0]).toBeGreaterThan(held[1])
    expect(held[0] - held[1]).toBeLessThan(1e-9)
  })

  it('selects (b, κ) on the Brier of the cross-fitted recalibrated posterior by the one-standard-error rule', () => {
    const L = tallies(council({ n: 300, seed: 5, reliabilities: [0.85, 0.7, 0.6, 0.35], rounds: 2, K: 3 }))
    const sel = selectStandingVote(L, 0, 5, null)
    expect(sel.points).toHaveLength(45)
    const best = Math.min(...sel.scores)
    const chosen = sel.points.indexOf(sel.hyper)
    // Within one standard error of the best, and no point as good has a smaller κ.
    expect(sel.scores[chosen]).toBeLessThan(best + 0.05)
    const within = sel.points.filter((_, j) => sel.scores[j] <= sel.scores[chosen])
    for (const h of within) expect(h.kappa!).toBeGreaterThanOrEqual(sel.hyper.kappa!)
    // A clearly adversarial seat is worth telling apart: κ > 0 survives the rule.
    expect(sel.hyper.kappa).toBeGreaterThan(0)
    expect(selectHyper('standing-vote', L, 0)).toEqual(sel.hyper)
    const agg = fitAggregator('standing-vote', L, null, 0) as StandingVoteAggregator
    expect(agg.hyper).toEqual(sel.hyper)
    expect(agg.recalibration).not.toBeNull()
    const weights = agg.weights(L[0])
    expect(weights.S4).toBeLessThan(0) // reliably wrong: a negative weight
    expect(weights.S4).toBeLessThan(weights.S1)
  })

  it('weighs copies of one model alike: on seats of equal reliability the rule keeps κ = 0 (a plain vote of standing answers)', () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const L = tallies(council({ n: 50, seed, reliabilities: [0.8, 0.8, 0.8], rounds: 2, K: 3 }))
      expect(selectStandingVote(L, 0, 5, null).hyper.kappa).toBe(0)
    }
  })

  it('gives a panel of more than FEW_SEATS seats (a crowd) the plain CV minimum, not the one-standard-error rule', () => {
    const rel = Array.from({ length: FEW_SEATS + 4 }, (_, i) => (i % 3 === 0 ? 0.55 : 0.85))
    const L = tallies(council({ n: 60, seed: 9, reliabilities: rel, rounds: 1, K: 2 }))
    const sel = selectStandingVote(L, 0, 5, null)
    expect(sel.scores[sel.points.indexOf(sel.hyper)]).toBe(Math.min(...sel.scores))
  })

  it('runs with given (b, κ) and no label (no recalibration), and refuses to select them without one', () => {
    const seats = new SeatIndex()
    const t = buildTallies(trace('a', ['x', 'y'], [m('1', 0, 'A', 'propose', { answer: 'x' })]), seats)
    const agg = fitAggregator('standing-vote', [t], { b: 0.7, kappa: 1 }, 0) as StandingVoteAggregator
    expect(agg.recalibration).toBeNull()
    expect(agg.posteriorAt(t)[0]).toBeCloseTo(0.7, 15)
    expect(() => fitAggregator('standing-vote', [t], null, 0)).toThrow(/no labeled task/)
  })

  it('is calibrated in nested CV on a simulated council: mean confidence within 0.03 of accuracy', () => {
    const L = tallies(council({ n: 600, seed: 11, reliabilities: [0.8, 0.7, 0.65], rounds: 3, K: 2 }))
    const { predictions } = nestedCv('standing-vote', L, 5, 0)
    const conf = predictions.map((p) => Math.max(...Array.from(p.p)))
    const acc = predictions.filter((p) => p.answer === p.gold).length / predictions.length
    const meanConf = conf.reduce((a, b) => a + b, 0) / conf.length
    expect(Math.abs(meanConf - acc)).toBeLessThan(0.03)
  })
})
