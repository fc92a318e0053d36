import { describe, expect, it } from 'vitest'
import { indexForKey, keyForIndex, matching } from '../../src/renderer/src/review/candidate-keys'
import { pace } from '../../src/renderer/src/review/pace'

describe('candidate keys (Review and Calibrate)', () => {
  it('numbers the first ten candidates 1–9, 0 and no further, and reads the digits back', () => {
    expect(Array.from({ length: 12 }, (_, i) => keyForIndex(i))).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '9', '0', null, null])
    for (let i = 0; i < 10; i++) expect(indexForKey(keyForIndex(i)!)).toBe(i)
    expect(indexForKey('a')).toBeNull()
    expect(indexForKey('10')).toBeNull()
  })

  it('filters by a case-insensitive substring, in the task order; no filter or a blank one shows all', () => {
    const c = ['Alpha', 'bravo', 'charlie', 'juliett', 'lima', '42']
    expect(matching(c, null)).toEqual([0, 1, 2, 3, 4, 5])
    expect(matching(c, '  ')).toEqual([0, 1, 2, 3, 4, 5])
    expect(matching(c, 'LI')).toEqual([2, 3, 4])
    expect(matching(c, 'al')).toEqual([0])
    expect(matching(c, '4')).toEqual([5])
    expect(matching(c, 'zulu')).toEqual([])
  })
})

describe('review progress pace', () => {
  it('is the labels after the first over the time since it, per hour; none before two labels', () => {
    expect(pace([])).toBeNull()
    expect(pace([{ at: 0 }])).toBeNull()
    expect(pace([{ at: 0 }, { at: 60_000 }])).toBe(60)
    expect(pace([{ at: 1000 }, { at: 31_000 }, { at: 61_000 }])).toBe(120)
    expect(pace([{ at: 5 }, { at: 5 }])).toBeNull()
  })
})
