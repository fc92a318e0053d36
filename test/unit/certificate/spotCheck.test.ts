import { describe, expect, it } from 'vitest'
import { hashMod } from '../../../src/main/engine/hash'
import { isSpotChecked } from '../../../src/main/engine/certificate'

describe('spot-check routing (docs/engine.md §10)', () => {
  const ids = Array.from({ length: 100_000 }, (_, i) => `task-${i}`)

  it('follows H(seed:spot:task) mod 10000 < round(10000·ρ), deterministically', () => {
    for (const id of ids.slice(0, 200)) {
      expect(isSpotChecked(id)).toBe(hashMod(`0:spot:${id}`, 10000) < 500)
      expect(isSpotChecked(id, 0.123, 7)).toBe(hashMod(`7:spot:${id}`, 10000) < 1230)
      expect(isSpotChecked(id)).toBe(isSpotChecked(id))
    }
    expect(ids.slice(0, 1000).some((id) => isSpotChecked(id, 0))).toBe(false)
    expect(ids.slice(0, 1000).every((id) => isSpotChecked(id, 1))).toBe(true)
  })

  it('routes ≈ ρ of 100k ids, independent of their order', () => {
    const picked = ids.filter((id) => isSpotChecked(id))
    const rate = picked.length / ids.length
    console.log(`spot-check rate at ρ = 0.05 on 100k ids: ${rate.toFixed(4)} (${picked.length})`)
    // sd = sqrt(0.05·0.95/1e5) ≈ 0.0007
    expect(Math.abs(rate - 0.05)).toBeLessThan(0.003)
    const reversed = [...ids].reverse().filter((id) => isSpotChecked(id))
    expect(new Set(reversed)).toEqual(new Set(picked))
  })
})
