import { describe, expect, it } from 'vitest'
import { fitCouncil } from '../../../src/main/engine/act-or-defer/fit-council'
import { BestSeatAggregator } from '../../../src/main/engine/best-seat'
import { foldsOf } from '../../../src/main/engine/cv-select'
import { fitAggregator } from '../../../src/main/engine/fit'
import { looInfluence } from '../../../src/main/engine/influence'
import { MajorityFinalAggregator } from '../../../src/main/engine/majority-final'
import { MethodRefused } from '../../../src/main/engine/methods'
import { nestedCv } from '../../../src/main/engine/nested-cv'
import { runEvaluate } from '../../../src/main/engine/run-evaluate'
import { runPosterior } from '../../../src/main/engine/run-posterior'
import { accuracy, brier, nll } from '../../../src/main/engine/scores'
import { SeatIndex } from '../../../src/main/engine/seat-index'
import { socialAt } from '../../../src/main/engine/social'
import { buildTallies } from '../../../src/main/engine/tallies'
import { hashMod } from '../../../src/main/engine/hash'
import { NO_ANSWER, scoredAnswer } from '../../../src/main/engine/tie-break'
import { council, m, trace, votes } from './helpers'

/** A debate in which every kind of move changes (or keeps) a seat's current answer. */
function debate(task = 'd', gold: string | null = null) {
  return trace(task, ['a', 'b', 'c'], [
    m('1', 0, 'A', 'propose', { answer: 'a' }),
    m('2', 0, 'B', 'propose', { answer: 'b' }),
    m('3', 0, 'C', 'propose', { answer: 'b' }),
    m('4', 0, 'D', 'propose', { answer: 'c' }),
    m('5', 1, 'A', 'abstain'), // keeps a
    m('6', 1, 'B', 'retract'), // clears b
    m('7', 1, 'C', 'concede', { target: '1' }), // takes a
    m('8', 2, 'D', 'challenge', { target: '2' }), // (−1, b): D keeps c
    m('9', 2, 'B', 'vote', { answer: 'c' })
  ], gold)
}

describe('majority-final (docs/engine.md §6): the social reading at the last cut', () => {
  const agg = new MajorityFinalAggregator()

  it('counts each seat\'s latest +1 candidate: abstain keeps it, retract clears it, concede takes the target\'s', () => {
    const t = buildTallies(debate(), new SeatIndex())
    expect([...agg.posteriorAt(t, 0)]).toEqual([1 / 4, 2 / 4, 1 / 4])
    expect([...agg.posteriorAt(t, 1)]).toEqual([2 / 3, 0, 1 / 3]) // B has no answer: out of the denominator
    expect([...agg.posteriorAt(t)]).toEqual([2 / 4, 0, 2 / 4])
    for (const r of [0, 1, 2, undefined]) expect([...agg.posteriorAt(t, r)]).toEqual([...socialAt(t, r)])
    expect(agg.weights()).toEqual({})
  })

  it('is uniform when no seat has an answer, and leaves a dropped seat out', () => {
    const none = buildTallies(trace('n', ['a', 'b', 'c', 'd'], [m('1', 0, 'A', 'abstain'), m('2', 1, 'B', 'abstain')]), new SeatIndex())
    expect([...agg.posteriorAt(none)]).toEqual([0.25, 0.25, 0.25, 0.25])
    const t = buildTallies(debate(), new SeatIndex())
    expect([...agg.posteriorAt(t, undefined, 0)]).toEqual([1 / 3, 0, 2 / 3]) // A dropped
    expect(looInfluence(agg, t).map((x) => x.seat)).toEqual(['A', 'B', 'C', 'D'])
  })

  it('answers by the seeded tie rule and reads no label', () => {
    const traces = Array.from({ length: 20 }, (_, i) => debate(`t${i}`, i % 2 === 0 ? 'a' : 'c'))
    const out = runPosterior({ method: 'majority-final', traces, calibration: [], hyper: null, seed: 5 })
    out.forEach((o) => expect(o.answer).toBe(['a', 'c'][hashMod(`5:${o.task}`, 2)]))
    const cal = council({ n: 30, seed: 1, reliabilities: [0.9, 0.2, 0.2], K: 3, prefix: 'c' })
    expect(runPosterior({ method: 'majority-final', traces, calibration: cal, hyper: null, seed: 5 })).toEqual(out)
    expect(() => runPosterior({ method: 'majority-final', traces, calibration: [], hyper: { b: 0.6 }, seed: 0 })).toThrow(RangeError)
  })

  it('evaluate: the same predictions in every fold (nothing fitted), selected {} per fold', () => {
    const traces = council({ n: 60, seed: 3, reliabilities: [0.8, 0.6, 0.55], rounds: 3 })
    const r = runEvaluate({ method: 'majority-final', traces, folds: 5, seed: 0 })
    if ('refused' in r) throw new Error(r.refused)
    expect(r.selected).toEqual([{}, {}, {}, {}, {}])
    const out = runPosterior({ method: 'majority-final', traces, calibration: [], hyper: null, seed: 0 })
    expect(r.accuracy).toBe(out.filter((o, i) => o.answer === traces[i].gold).length / traces.length)
  })
})

describe('the certificate\'s fits (fit-council): majority-final is label-free, best-seat is refit per fold', () => {
  it('one aggregator for every fold and the deployed fit (majority-final); a pick per training part (best-seat)', () => {
    const seats = new SeatIndex()
    const C = council({ n: 40, seed: 2, reliabilities: [0.8, 0.6, 0.55], rounds: 2 }).map((t) => buildTallies(t, seats))
    const extra = council({ n: 10, seed: 3, reliabilities: [0.8, 0.6, 0.55], rounds: 2, prefix: 'e' }).map((t) => buildTallies(t, seats))
    for (const extraLabeled of [[], extra]) {
      const mf = fitCouncil({ method: 'majority-final', calibration: C, extraLabeled, seed: 0 })
      expect(new Set(mf.outOfFold).size).toBe(1) // no refit per fold (5 non-empty folds)
      expect(mf.outOfFold[0]).toBeInstanceOf(MajorityFinalAggregator)
      if (extraLabeled.length > 0) expect(mf.outOfFold[0]).toBe(mf.deployed)
      const bs = fitCouncil({ method: 'best-seat', calibration: C, extraLabeled, seed: 0 })
      expect(bs.outOfFold.every((a) => a instanceof BestSeatAggregator && a !== bs.deployed)).toBe(true)
      expect(new Set(bs.outOfFold).size).toBe(5)
    }
  })
})

describe('best-seat (docs/engine.md §6): one seat, picked on the labeled side', () => {
  const C = ['x', 'y', 'z']

  it('picks the seat with the most correct FINAL answers; an unanswered labeled task counts as wrong', () => {
    const seats = new SeatIndex()
    // A: right on 2 of the 2 tasks it answered (100 %, but 2 of 4); B: right on 3 of 4;
    // C: wrong at round 0, right after changing its mind on all 4 — the final answer is what counts.
    const L = [0, 1, 2, 3].map((i) => buildTallies(trace(`l${i}`, C, [
      ...(i < 2 ? [m('a', 0, 'A', 'propose', { answer: 'x' })] : [m('a', 0, 'A', 'abstain')]),
      m('b', 0, 'B', 'propose', { answer: i < 3 ? 'x' : 'y' }),
      m('c', 0, 'C', 'propose', { answer: 'z' }),
      m('c2', 1, 'C', 'propose', { answer: 'x' })
    ], 'x'), seats))
    const agg = new BestSeatAggregator(L)
    expect(seats.ids[agg.seat]).toBe('C')
    expect(agg.seatReport(seats)).toEqual([
      { seat: 'A', seen: true, r: null, accuracy: 0.5, picked: false },
      { seat: 'B', seen: true, r: null, accuracy: 0.75, picked: false },
      { seat: 'C', seen: true, r: null, accuracy: 1, picked: true }
    ])
    expect(agg.weights()).toEqual({})
    // Without C, B (3 of 4) beats A (2 answered, both right).
    const noC = [0, 1, 2, 3].map((i) => buildTallies(trace(`m${i}`, C, [
      ...(i < 2 ? [m('a', 0, 'A', 'propose', { answer: 'x' })] : []),
      m('b', 0, 'B', 'propose', { answer: i < 3 ? 'x' : 'y' })
    ], 'x'), seats))
    expect(seats.ids[new BestSeatAggregator(noC).seat]).toBe('B')
  })

  it('ties go to the first seat in the seat index, whatever the order within a task', () => {
    const seats = new SeatIndex()
    const L = [
      buildTallies(votes('l0', C, [['P', 'x'], ['Q', 'y']], 'x'), seats),
      buildTallies(votes('l1', C, [['Q', 'x'], ['P', 'y']], 'x'), seats)
    ]
    expect(seats.ids[new BestSeatAggregator(L).seat]).toBe('P')
    expect(seats.ids[new BestSeatAggregator([...L].reverse()).seat]).toBe('P')
    const other = new SeatIndex()
    other.index('Q')
    const L2 = [votes('l0', C, [['P', 'x'], ['Q', 'y']], 'x'), votes('l1', C, [['Q', 'x'], ['P', 'y']], 'x')].map((t) => buildTallies(t, other))
    expect(other.ids[new BestSeatAggregator(L2).seat]).toBe('Q')
  })

  it('follows its seat\'s current answer at the cut; a task it did not answer: uniform, no answer, scored wrong', () => {
    const seats = new SeatIndex()
    const L = [buildTallies(debate('l', 'a'), seats)] // final: A a, C a, D c, B c → A (first) is picked
    const agg = new BestSeatAggregator(L)
    expect(seats.ids[agg.seat]).toBe('A')
    const t = buildTallies(trace('s', C, [m('1', 0, 'B', 'propose', { answer: 'y' }), m('2', 1, 'A', 'propose', { answer: 'z' }), m('3', 2, 'A', 'retract')]), seats)
    expect([...agg.posteriorAt(t, 0)]).toEqual([1 / 3, 1 / 3, 1 / 3])
    expect(agg.hasAnswer(t, 0)).toBe(false)
    expect([...agg.posteriorAt(t, 1)]).toEqual([0, 0, 1])
    expect(agg.hasAnswer(t, 1)).toBe(true)
    expect([...agg.posteriorAt(t)]).toEqual([1 / 3, 1 / 3, 1 / 3]) // retracted: no answer at the last round
    expect(agg.hasAnswer(t)).toBe(false)
    expect(agg.hasAnswer(t, 1, 1)).toBe(false) // A (local seat 1) dropped
    // Scored: the uniform posterior would tie-break to some candidate; NO_ANSWER is never the gold.
    const p = agg.posteriorAt(t)
    for (const gold of [0, 1, 2]) {
      const pred = { p, gold, answer: scoredAnswer(agg, t, p, 0) }
      expect(pred.answer).toBe(NO_ANSWER)
      expect(accuracy([pred])).toBe(0)
      expect(brier([pred])).toBeCloseTo(2 / 3, 15)
      expect(nll([pred])).toBeCloseTo(Math.log(3), 15)
    }
  })

  it('posterior: picked on --calibration only; answer null where its seat did not answer', () => {
    const cal = [0, 1, 2, 3].map((i) => votes(`c${i}`, C, [['A', 'y'], ['B', 'x']], 'x'))
    const traces = [votes('s1', C, [['A', 'z'], ['B', 'y']]), votes('s2', C, [['A', 'z']]), votes('s3', C, [['B', 'z'], ['A', 'x']], 'z')]
    const out = runPosterior({ method: 'best-seat', traces, calibration: cal, hyper: null, seed: 0 })
    expect(out.map((o) => o.answer)).toEqual(['y', null, 'z']) // B's answers; the gold of s3 is never read
    expect(out[1].posterior).toEqual({ x: 1 / 3, y: 1 / 3, z: 1 / 3 })
    expect(out.every((o) => Object.keys(o.weights).length === 0)).toBe(true)
    expect(() => runPosterior({ method: 'best-seat', traces, calibration: [], hyper: null, seed: 0 })).toThrow(MethodRefused)
    expect(() => fitAggregator('best-seat', [], {}, 0)).toThrow(/best-seat needs a labeled task/)
  })

  it('evaluate: out of fold — each fold\'s seat is picked on the other folds only', () => {
    // A is right on the first half of the tasks, B on the second: in-sample they tie (A would be
    // picked for every task); out of fold the pick depends on what the held-out fold removed.
    const n = 30
    const traces = Array.from({ length: n }, (_, i) => votes(`t${i}`, ['x', 'y'], [['A', i < n / 2 ? 'x' : 'y'], ['B', i < n / 2 ? 'y' : 'x']], 'x'))
    const seats = new SeatIndex()
    const L = traces.map((t) => buildTallies(t, seats))
    const fold = foldsOf(L, 5, 0)
    const { predictions } = nestedCv('best-seat', L, 5, 0)
    L.forEach((t, i) => {
      const train = L.filter((_, j) => fold[j] !== fold[i])
      const picked = seats.ids[new BestSeatAggregator(train).seat]
      const answer = t.vote0[t.seatIds.indexOf(picked)]
      expect(predictions[i].answer).toBe(answer)
    })
    const r = runEvaluate({ method: 'best-seat', traces, folds: 5, seed: 0 })
    if ('refused' in r) throw new Error(r.refused)
    expect(r.selected).toEqual([{}, {}, {}, {}, {}])
    expect(r.accuracy).toBe(accuracy(predictions))
    const inSample = new BestSeatAggregator(L) // A: 15 of 30, as B; A first
    expect(seats.ids[inSample.seat]).toBe('A')
    expect(r.accuracy).not.toBe(0.5) // in-sample would score exactly A's 0.5
  })
})
