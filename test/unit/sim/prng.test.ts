import { describe, expect, it } from 'vitest'
import { createRng } from '../../../src/main/sim/prng'

describe('createRng', () => {
  const draw = (seed: number | string, stream = '', n = 1000): number[] => {
    const r = createRng(seed, stream)
    return Array.from({ length: n }, () => r.next())
  }

  it('is a pure function of seed and stream', () => {
    expect(draw(42)).toEqual(draw(42))
    expect(draw('demo', 'text')).toEqual(draw('demo', 'text'))
    expect(draw(42)).not.toEqual(draw(43))
    expect(draw(42, 'a')).not.toEqual(draw(42, 'b'))
    // Seeds beyond 32 bits are not silently truncated.
    expect(draw(2 ** 32 + 5)).not.toEqual(draw(5))
  })

  it('draws uniformly in [0, 1) and integers in range', () => {
    const xs = draw(7, '', 100_000)
    expect(Math.min(...xs)).toBeGreaterThanOrEqual(0)
    expect(Math.max(...xs)).toBeLessThan(1)
    expect(xs.reduce((a, b) => a + b, 0) / xs.length).toBeCloseTo(0.5, 2)
    const r = createRng(7)
    const counts = [0, 0, 0]
    for (let i = 0; i < 30_000; i++) counts[r.int(3)]++
    for (const c of counts) expect(Math.abs(c - 10_000)).toBeLessThan(400)
    expect(new Set(Array.from({ length: 200 }, () => r.pick(['a', 'b'])))).toEqual(new Set(['a', 'b']))
  })
})
