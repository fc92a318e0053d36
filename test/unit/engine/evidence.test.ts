import { describe, expect, it } from 'vitest'
import { buildTallies, fitAggregator, fitReliabilities, SeatIndex } from '../../../src/main/engine'
import { m, trace } from './helpers'

describe('evidence behind each reliability (docs/engine.md §4, shown beside the seat weights)', () => {
  it('is Σ_L N_i: every endorsement of the seat on labeled tasks, and 0 for a seat never seen', () => {
    const seats = new SeatIndex()
    const L = [
      // A: propose + challenge of B's propose = 2 endorsements; B: 1; C: abstain = 0 (but seen).
      trace('t1', ['x', 'y'], [m('m1', 0, 'A', 'propose', { answer: 'x' }), m('m2', 0, 'B', 'propose', { answer: 'y' }), m('m3', 1, 'A', 'challenge', { target: 'm2' }), m('m4', 1, 'C', 'abstain')], 'x'),
      // A: 1; B: retract after a propose = 2.
      trace('t2', ['x', 'y'], [m('m1', 0, 'A', 'vote', { answer: 'y' }), m('m2', 0, 'B', 'propose', { answer: 'x' }), m('m3', 1, 'B', 'retract')], 'y'),
      // Unlabeled: never counts.
      trace('t3', ['x', 'y'], [m('m1', 0, 'A', 'propose', { answer: 'x' })], null)
    ].map((t) => buildTallies(t, seats))
    seats.index('D') // a seat the labels never saw
    const rel = fitReliabilities(L)
    const ev = (s: string) => rel.evidence[seats.find(s)] ?? 0
    expect([ev('A'), ev('B'), ev('C'), ev('D')]).toEqual([3, 3, 0, 0])

    const report = fitAggregator('per-agent', L, { b: 0.7, kappa: 1, s: 8 }, 0).seatReport(seats)
    expect(Object.fromEntries(report.map((r) => [r.seat, r.evidence]))).toEqual({ A: 3, B: 3, C: 0, D: 0 })
  })
})
