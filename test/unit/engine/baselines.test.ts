import { describe, expect, it } from 'vitest'
import { GatedAggregator, passesGate } from '../../../src/main/engine/gated'
import { hashMod } from '../../../src/main/engine/hash'
import { MajorityAggregator } from '../../../src/main/engine/majority'
import { runPosterior } from '../../../src/main/engine/run-posterior'
import { SeatIndex } from '../../../src/main/engine/seat-index'
import { buildTallies } from '../../../src/main/engine/tallies'
import { tieBreak } from '../../../src/main/engine/tie-break'
import { m, trace, votes } from './helpers'

describe('majority (docs/engine.md §6)', () => {
  it('counts each seat\'s LAST round-0 propose/vote; later rounds and other forces are ignored', () => {
    const t = buildTallies(trace('t', ['a', 'b', 'c'], [
      m('1', 0, 'A', 'propose', { answer: 'a' }),
      m('2', 0, 'A', 'vote', { answer: 'b' }),
      m('3', 0, 'B', 'propose', { answer: 'b' }),
      m('4', 0, 'C', 'challenge', { target: '3' }),
      m('5', 1, 'C', 'propose', { answer: 'c' }),
      m('6', 1, 'B', 'propose', { answer: 'c' })
    ]), new SeatIndex())
    expect([...new MajorityAggregator().posteriorAt(t)]).toEqual([0, 1, 0])
    expect([...new MajorityAggregator().posteriorAt(t, 0, 0)]).toEqual([0, 1, 0]) // A dropped
  })

  it('is uniform without any round-0 vote', () => {
    const t = buildTallies(trace('t', ['a', 'b', 'c', 'd'], [m('1', 1, 'A', 'propose', { answer: 'a' })]), new SeatIndex())
    expect([...new MajorityAggregator().posteriorAt(t)]).toEqual([0.25, 0.25, 0.25, 0.25])
  })
})

describe('gated majority (docs/engine.md §6)', () => {
  it('compares accuracy with the mean 1/K exactly, in rationals', () => {
    // 1 right of 10 tasks with K = 10: 1/10 > 1/10 is false — but in floats Σ 1/10 = 0.9999999999999999 < 1.
    let float = 0
    for (let i = 0; i < 10; i++) float += 1 / 10
    expect(1 > float).toBe(true)
    expect(passesGate(1, new Map([[10, 10]]))).toBe(false)
    expect(passesGate(2, new Map([[10, 10]]))).toBe(true)
    // mixed K: 2 tasks at K=2 and 1 at K=3 → Σ 1/K = 4/3; 1 right fails, 2 right pass
    expect(passesGate(1, new Map([[2, 2], [3, 1]]))).toBe(false)
    expect(passesGate(2, new Map([[2, 2], [3, 1]]))).toBe(true)
    expect(passesGate(0, new Map())).toBe(false) // no round-0 answer in L: does not pass
  })

  it('drops failing seats and falls back to plain majority when no proposer passes', () => {
    const seats = new SeatIndex()
    const C = ['x', 'y']
    // On L: A always right, B and C always wrong.
    const L = [0, 1, 2, 3].map((i) => buildTallies(votes(`l${i}`, C, [['A', 'x'], ['B', 'y'], ['C', 'y']], 'x'), seats))
    const gated = new GatedAggregator(L)
    expect([...gated.pass]).toEqual([1, 0, 0])
    const t = buildTallies(votes('s', C, [['A', 'x'], ['B', 'y'], ['C', 'y']]), seats)
    expect([...gated.posteriorAt(t)]).toEqual([1, 0])
    const noA = buildTallies(votes('s2', C, [['B', 'y'], ['C', 'x'], ['D', 'x']]), seats)
    expect([...gated.posteriorAt(noA)]).toEqual([2 / 3, 1 / 3])
  })
})

describe('the seeded tie rule (docs/engine.md §6, BDA D.6)', () => {
  it('tied = within 1e-12 of the top, in candidate order; answer = tied[H(seed:task) mod |tied|]', () => {
    const p = [0.3, 0.35 - 5e-13, 0.35, 0]
    for (const task of ['t1', 't2', 't3', 'x']) for (const seed of [0, 7]) {
      expect(tieBreak(p, 4, task, seed)).toBe([1, 2][hashMod(`${seed}:${task}`, 2)])
    }
    expect(tieBreak([0.3, 0.35 - 2e-12, 0.35], 3, 't', 0)).toBe(2)
  })

  it('is not candidate order: exact ties pick the second candidate for some tasks', () => {
    const picks = Array.from({ length: 40 }, (_, i) => tieBreak([0.5, 0.5], 2, `task-${i}`, 0))
    expect(picks).toContain(0)
    expect(picks).toContain(1)
  })

  it('applies to every method: a 1–1 majority answers by the hash', () => {
    const traces = Array.from({ length: 20 }, (_, i) => votes(`t${i}`, ['a', 'b'], [['A', 'a'], ['B', 'b']]))
    const out = runPosterior({ method: 'majority', traces, calibration: [], hyper: null, seed: 3 })
    out.forEach((o) => expect(o.answer).toBe(['a', 'b'][hashMod(`3:${o.task}`, 2)]))
  })
})
