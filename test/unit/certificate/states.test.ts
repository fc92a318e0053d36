import { describe, expect, it } from 'vitest'
import { hashHex } from '../../../src/main/engine/hash'
import {
  EmpiricalCdf,
  lambdaHalves,
  posteriorState,
  roundToGrid,
  socialShares,
  socialState,
  splitModLoc,
  stateOf
} from '../../../src/main/engine/certificate'

describe('state helpers (docs/engine.md §8.2)', () => {
  const cands = ['a', 'b', 'c']

  it('social shares leave seats without a current answer out of the denominator', () => {
    expect(Array.from(socialShares(cands, ['a', null, 'a', 'b', undefined]))).toEqual([2 / 3, 1 / 3, 0])
    const s = socialState(cands, ['a', null, 'a', 'b'])
    expect(s.p1).toBe(2 / 3)
    expect(s.delta).toBe(2 / 3 - 1 / 3)
  })

  it('social shares are uniform when no seat has a current answer', () => {
    expect(Array.from(socialShares(cands, [null, null]))).toEqual([1 / 3, 1 / 3, 1 / 3])
    expect(socialState(cands, []).delta).toBe(0)
  })

  it('rejects an answer that is not a candidate', () => {
    expect(() => socialShares(cands, ['z'])).toThrow(/not a candidate/)
  })

  it('stateOf takes the top two probabilities', () => {
    expect(stateOf([0.2, 0.5, 0.3])).toEqual({ p1: 0.5, delta: 0.5 - 0.3 })
    expect(stateOf([0.5, 0.5])).toEqual({ p1: 0.5, delta: 0 })
  })

  it('posterior state rounds p1 and Δ of the RAW posterior to the 0.05 grid', () => {
    expect(roundToGrid(0.024)).toBe(0)
    expect(roundToGrid(0.026)).toBe(0.05)
    expect(roundToGrid(0.974)).toBe(0.95)
    expect(roundToGrid(1)).toBe(1)
    // Raw Δ = 0.674 − 0.326 = 0.348 → 0.35; rounding p1 and p2 first would give 0.65 − 0.35 = 0.30.
    const s = posteriorState([0.674, 0.326])
    expect(s.p1).toBe(0.65)
    expect(s.delta).toBe(0.35)
  })
})

describe('right-continuous ECDF (docs/engine.md §8.3)', () => {
  it('F(x) = #{≤ x}/n, ties counted, scored values between data points', () => {
    const F = new EmpiricalCdf([0.2, 0.5, 0.5, 0.9])
    expect(F.value(0.1)).toBe(0)
    expect(F.value(0.2)).toBe(0.25)
    expect(F.value(0.5)).toBe(0.75)
    expect(F.value(0.6)).toBe(0.75)
    expect(F.value(0.9)).toBe(1)
    expect(F.value(2)).toBe(1)
    expect(F.count(0.5)).toBe(3)
  })
})

describe('hash splits (docs/engine.md §8.4, §8 Budget)', () => {
  const ids = Array.from({ length: 101 }, (_, i) => `task-${i}`)

  it('D_mod = first round(0.2·|C|) by H(seed:split:task), D_loc the rest', () => {
    const { mod, loc } = splitModLoc(ids, '7')
    expect(mod.length).toBe(20)
    expect(loc.length).toBe(81)
    const sorted = [...ids].sort((a, b) => (hashHex(`7:split:${a}`) < hashHex(`7:split:${b}`) ? -1 : 1))
    expect(Array.from(mod, (i) => ids[i])).toEqual(sorted.slice(0, 20))
    expect(Array.from(loc, (i) => ids[i])).toEqual(sorted.slice(20))
  })

  it('C1 = first ⌊|C|/2⌋ by H(seed:lambda:task); independent of input order', () => {
    const { c1, c2 } = lambdaHalves(ids, '0')
    expect(c1.length).toBe(50)
    expect(c2.length).toBe(51)
    const rev = [...ids].reverse()
    const r = lambdaHalves(rev, '0')
    expect(new Set(Array.from(r.c1, (i) => rev[i]))).toEqual(new Set(Array.from(c1, (i) => ids[i])))
  })
})
