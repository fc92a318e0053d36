import { describe, expect, it } from 'vitest'
import { endorsementsOf } from '../../../src/main/engine/endorsements'
import { SeatIndex } from '../../../src/main/engine/seat-index'
import { socialAt, currentAnswer } from '../../../src/main/engine/social'
import { buildTallies, C_AT, cutAt, N_AT, recordWidth, type TaskTallies } from '../../../src/main/engine/tallies'
import { council, m, trace } from './helpers'

const field = (t: TaskTallies, cut: number, s: number, at: number): number => t.counts[(cut * t.S + s) * recordWidth(t.K) + at]

describe('task tallies (docs/engine.md §2)', () => {
  const tr = trace('t', ['a', 'b', 'c'], [
    m('1', 0, 'A', 'propose', { answer: 'a' }),
    m('2', 0, 'B', 'vote', { answer: 'b' }),
    m('3', 0, 'B', 'vote', { answer: 'c' }), // B's last round-0 vote is c
    m('4', 2, 'A', 'challenge', { target: '3' }),
    m('5', 2, 'C', 'abstain'),
    m('6', 5, 'A', 'retract')
  ], 'a')
  const seats = new SeatIndex()
  seats.index('Z') // global indices need not start at the task's seats
  const t = buildTallies(tr, seats)

  it('indexes seats globally and keeps the distinct rounds as cuts', () => {
    expect(t.seatIds).toEqual(['A', 'B', 'C'])
    expect([...t.seats]).toEqual([1, 2, 3])
    expect(t.rounds).toEqual([0, 2, 5])
    expect(t.gold).toBe(0)
    expect([...t.vote0]).toEqual([0, 2, -1])
  })

  it('accumulates N, c, e per cut', () => {
    // A: (+1,a) at r0; (−1,c) at r2; retract (−1,a) at r5.
    expect([0, 1, 2].map((r) => field(t, r, 0, N_AT))).toEqual([1, 2, 3])
    const c = (r: number, s: number) => [0, 1, 2].map((g) => field(t, r, s, C_AT + g))
    const e = (r: number, s: number) => [0, 1, 2].map((g) => field(t, r, s, C_AT + 3 + g))
    expect(c(0, 0)).toEqual([1, 0, 0])
    expect(c(1, 0)).toEqual([2, 1, 0])
    expect(c(2, 0)).toEqual([2, 2, 1])
    expect(e(2, 0)).toEqual([1, 0, 0])
    expect(c(2, 1)).toEqual([0, 1, 1])
    expect(field(t, 2, 2, N_AT)).toBe(0) // abstain only: moved, no endorsement
  })

  it('tracks the current answer: latest +1, cleared by a retract', () => {
    expect(currentAnswer(t, 0, 0)).toBe(0)
    expect(currentAnswer(t, 0, 4)).toBe(0)
    expect(currentAnswer(t, 0, 5)).toBe(-1)
    expect(currentAnswer(t, 1, 0)).toBe(2)
    expect([...socialAt(t, 0)]).toEqual([0.5, 0, 0.5])
    expect([...socialAt(t, 99)]).toEqual([0, 0, 1])
    expect([...socialAt(buildTallies(trace('e', ['x', 'y'], []), seats))]).toEqual([0.5, 0.5])
  })

  it('finds the cut of a round, −1 before the first move', () => {
    const late = buildTallies(trace('l', ['x', 'y'], [m('1', 1, 'A', 'propose', { answer: 'x' })]), seats)
    expect(cutAt(late, 0)).toBe(-1)
    expect(cutAt(late, 1)).toBe(0)
    expect(cutAt(late)).toBe(0)
    expect(cutAt(t, 3)).toBe(1)
  })

  it('c_i equals the literal §5 expansion x_i on simulated traces', () => {
    const idx = new SeatIndex()
    for (const tr2 of council({ n: 50, seed: 3, reliabilities: [0.7, 0.6, 0.5], K: 4 })) {
      const tt = buildTallies(tr2, idx)
      const x = new Map<string, number[]>()
      endorsementsOf(tr2).forEach((e, i) => {
        if (e === null) return
        const row = x.get(tr2.moves[i].seat) ?? [0, 0, 0, 0]
        for (let g = 0; g < 4; g++) if (e.sign === 1 ? g === e.cand : g !== e.cand) row[g]++
        x.set(tr2.moves[i].seat, row)
      })
      tt.seatIds.forEach((seat, s) => {
        expect([0, 1, 2, 3].map((g) => field(tt, tt.R - 1, s, C_AT + g))).toEqual(x.get(seat) ?? [0, 0, 0, 0])
      })
    }
  })

  it('takes gold from the argument over the trace, −1 when not a candidate', () => {
    expect(buildTallies(tr, seats, 'b').gold).toBe(1)
    expect(buildTallies(tr, seats, null).gold).toBe(-1)
    expect(buildTallies(tr, seats, 'zzz').gold).toBe(-1)
  })

  it('long traces (> 64 moves: the id map path) resolve targets like short ones', () => {
    const moves = [m('first', 0, 'A', 'propose', { answer: 'a' })]
    for (let i = 0; i < 80; i++) moves.push(m(`p${i}`, 1, `S${i % 5}`, 'propose', { answer: i % 2 ? 'b' : 'c' }))
    moves.push(m('late', 2, 'B', 'challenge', { target: 'first' }), m('self', 2, 'C', 'challenge', { target: 'self' }))
    const codes = endorsementsOf(trace('long', ['a', 'b', 'c'], moves))
    expect(codes[81]).toEqual({ sign: -1, cand: 0 })
    expect(codes[82]).toBeNull()
    const tt = buildTallies(trace('long', ['a', 'b', 'c'], moves), new SeatIndex())
    expect(tt.seatIds).toEqual(['A', 'S0', 'S1', 'S2', 'S3', 'S4', 'B', 'C']) // C's move has no endorsement, but C moved
  })

  it('does not crash on rounds out of order (invalid): cuts still cover rounds ≤ t', () => {
    const bad = buildTallies(trace('bad', ['a', 'b'], [
      m('1', 2, 'A', 'propose', { answer: 'a' }),
      m('2', 0, 'B', 'propose', { answer: 'b' }),
      m('3', 1, 'A', 'retract')
    ]), new SeatIndex())
    expect(bad.rounds).toEqual([0, 1, 2])
    // "before" is list order: the retract (round 1) rejects the round-2 propose listed ahead of it
    expect([0, 1, 2].map((r) => field(bad, r, 0, N_AT))).toEqual([0, 1, 2])
    expect(currentAnswer(bad, 1, 0)).toBe(1)
    expect(currentAnswer(bad, 0, 2)).toBe(-1) // the retract comes after the propose in list order
    expect([...bad.vote0]).toEqual([-1, 1])
  })
})

