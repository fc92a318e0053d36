import { describe, expect, it } from 'vitest'
import { endorsementsOf } from '../../../src/main/engine/endorsements'
import { m, trace } from './helpers'

const C = ['a', 'b', 'c']
const en = (moves: Parameters<typeof trace>[2]) => endorsementsOf(trace('t', C, moves))
const E = (sign: 1 | -1, cand: string) => ({ sign, cand: C.indexOf(cand) })

describe('moves → signed endorsements (docs/engine.md §2)', () => {
  it('propose and vote endorse their answer', () => {
    expect(en([m('1', 0, 'A', 'propose', { answer: 'b' }), m('2', 0, 'B', 'vote', { answer: 'c' })])).toEqual([E(1, 'b'), E(1, 'c')])
  })

  it('concede to another seat copies the target; concede to oneself is nothing', () => {
    const out = en([
      m('1', 0, 'A', 'propose', { answer: 'a' }),
      m('2', 1, 'B', 'concede', { target: '1' }),
      m('3', 1, 'A', 'concede', { target: '1' })
    ])
    expect(out).toEqual([E(1, 'a'), E(1, 'a'), null])
  })

  it('challenge flips the target, also one of its own moves; a challenge of a challenge is +1', () => {
    const out = en([
      m('1', 0, 'A', 'propose', { answer: 'a' }),
      m('2', 1, 'B', 'challenge', { target: '1', answer: 'c' }), // the answer on a challenge is ignored
      m('3', 1, 'C', 'challenge', { target: '2' }),
      m('4', 2, 'A', 'challenge', { target: '1' })
    ])
    expect(out).toEqual([E(1, 'a'), E(-1, 'a'), E(1, 'a'), E(-1, 'a')])
  })

  it('concede to a challenge copies the −1', () => {
    const out = en([m('1', 0, 'A', 'propose', { answer: 'b' }), m('2', 1, 'B', 'challenge', { target: '1' }), m('3', 1, 'C', 'concede', { target: '2' })])
    expect(out).toEqual([E(1, 'b'), E(-1, 'b'), E(-1, 'b')])
  })

  it('retract rejects the seat\'s latest +1 candidate from any force, and is not reset by itself', () => {
    const out = en([
      m('1', 0, 'A', 'propose', { answer: 'a' }),
      m('2', 0, 'B', 'propose', { answer: 'c' }),
      m('3', 1, 'A', 'concede', { target: '2' }), // A's latest +1 is now c
      m('4', 1, 'A', 'retract'),
      m('5', 2, 'A', 'retract'), // still c
      m('6', 2, 'B', 'challenge', { target: '4' }), // flips (−1, c) into (+1, c): B's latest +1 stays c
      m('7', 2, 'C', 'retract') // C has no +1: nothing
    ])
    expect(out).toEqual([E(1, 'a'), E(1, 'c'), E(1, 'c'), E(-1, 'c'), E(-1, 'c'), E(1, 'c'), null])
  })

  it('a +1 reached by challenging a challenge counts as the latest +1 for a retract', () => {
    const out = en([
      m('1', 0, 'A', 'propose', { answer: 'a' }),
      m('2', 0, 'B', 'propose', { answer: 'b' }),
      m('3', 1, 'A', 'challenge', { target: '2' }),
      m('4', 1, 'B', 'challenge', { target: '3' }), // (+1, b) for B
      m('5', 2, 'B', 'retract')
    ])
    expect(out[4]).toEqual(E(-1, 'b'))
  })

  it('abstain gives nothing', () => {
    expect(en([m('1', 0, 'A', 'abstain')])).toEqual([null])
  })

  it('does not crash on references a valid trace never has', () => {
    const out = en([
      m('1', 0, 'A', 'abstain'),
      m('2', 0, 'B', 'concede', { target: '1' }), // target carries no endorsement
      m('3', 0, 'B', 'challenge', { target: 'nope' }),
      m('4', 0, 'B', 'challenge', { target: '4' }), // not strictly earlier
      m('5', 0, 'C', 'propose', { answer: 'zzz' }) // not a candidate
    ])
    expect(out).toEqual([null, null, null, null, null])
  })
})
