import { describe, expect, it } from 'vitest'
import { nextFling, type FlingState } from '../../../src/renderer/src/queue/fling'

const SCREEN = 700
/** The jump counts after each scroll event of `moves` (px, from 0), all while scrolling. */
function jumpsAlong(moves: number[], screen = SCREEN): number[] {
  let seen: FlingState = { offset: 0, jumps: 0 }
  return moves.map((offset) => (seen = nextFling(seen, offset, true, screen)).jumps)
}

describe('the queue’s fling rule: the pages a fling passes are not fetched', () => {
  it('counts jumps of more than a screen in a row: the second is a fling', () => {
    expect(jumpsAlong([3400, 6800, 10200])).toEqual([1, 2, 3])
  })

  it('never counts a wheel’s pace, nor a move of exactly a screen', () => {
    expect(jumpsAlong([100, 200, 300, 1000])).toEqual([0, 0, 0, 0])
    expect(jumpsAlong([700, 1400])).toEqual([0, 0])
  })

  it('starts again after a small move, and after a stop', () => {
    expect(jumpsAlong([3400, 6800, 6900, 10300])).toEqual([1, 2, 0, 1])
    const flung = nextFling({ offset: 3400, jumps: 2 }, 6800, true, SCREEN)
    expect(nextFling(flung, 6800, false, SCREEN).jumps).toBe(0)
  })

  it('keeps the count through a render that did not scroll (a page landing)', () => {
    const flung: FlingState = { offset: 6800, jumps: 2 }
    expect(nextFling(flung, 6800, true, SCREEN)).toBe(flung)
  })

  it('is never a fling before the list knows its screen height', () => {
    expect(jumpsAlong([3400, 6800], 0)).toEqual([0, 0])
  })
})
