import { describe, expect, it } from 'vitest'
import { actedShare, percent, refitMoves } from '../../src/shared/refit-change'
import type { FitShare } from '../../src/shared/api'

const fit = (acted: number, deferred: number): FitShare => ({ fitId: 'f', createdAt: '2026-12-01T00:00:00.000Z', decided: acted + deferred, acted, deferred })

describe('when a refit is news', () => {
  it('is not without a fit before it', () => {
    expect(refitMoves({ before: null, after: fit(10, 90), labelsSince: null })).toEqual({ actedPoints: null, queueChange: null, notable: false })
  })

  it('is at 5 points of acted share, and not just below', () => {
    // 400 of 1000 → 450 of 1000: exactly 5 points; the queue moves 600 → 550 (−8.3 %) too.
    expect(refitMoves({ before: fit(400, 600), after: fit(450, 550), labelsSince: 3 })).toMatchObject({ notable: true })
    // 2.4 points, with a queue that moves 4 % only.
    const small = refitMoves({ before: fit(4000, 6000), after: fit(4240, 5760), labelsSince: 3 })
    expect(small.actedPoints).toBeCloseTo(2.4, 9)
    expect(small.queueChange).toBeCloseTo(-0.04, 9)
    expect(small.notable).toBe(false)
  })

  it('is at 5 % of the queue even when the acted share hardly moves', () => {
    // Labels took tasks out: the share stays 10 %, the queue shrinks 900 → 855 (−5 %).
    const m = refitMoves({ before: fit(100, 900), after: fit(95, 855), labelsSince: 50 })
    expect(m.actedPoints).toBeCloseTo(0, 9)
    expect(m.queueChange).toBeCloseTo(-0.05, 12)
    expect(m.notable).toBe(true)
    expect(refitMoves({ before: fit(100, 900), after: fit(96, 856), labelsSince: 48 }).notable).toBe(false)
  })

  it('counts a queue that was empty and fills as news', () => {
    expect(refitMoves({ before: fit(100, 0), after: fit(99, 1), labelsSince: 0 })).toMatchObject({ queueChange: Infinity, notable: true })
    expect(refitMoves({ before: fit(0, 0), after: fit(0, 0), labelsSince: 0 })).toMatchObject({ actedPoints: 0, queueChange: 0, notable: false })
  })

  it('reads shares and percents', () => {
    expect(actedShare(fit(1, 3))).toBe(0.25)
    expect(actedShare(fit(0, 0))).toBe(0)
    expect(percent(0.32345)).toBe('32.3 %')
  })
})
