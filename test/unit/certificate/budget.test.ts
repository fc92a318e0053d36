import { describe, expect, it } from 'vitest'
import {
  actionAlpha,
  concentration,
  concentrations,
  finalRoundError,
  LAMBDA_GRID,
  resolveOptions,
  usableKs
} from '../../../src/main/engine/certificate'

describe('concentration term c_k (docs/engine.md §8.7)', () => {
  it('c_128 = 0.1530 for T·|K_used| = 12, δ = 0.03', () => {
    const c = concentration(128, 4, 3, 0.03)
    expect(c.toFixed(4)).toBe('0.1530')
    expect(c).toBeCloseTo(Math.sqrt(Math.log(400) / 256), 15)
  })

  it('uses |K_used|, not |K|: one usable k gives a smaller union bound', () => {
    expect(concentrations([128], 4, 0.03)[0]).toBeCloseTo(Math.sqrt(Math.log(4 / 0.03) / 256), 15)
    expect(Array.from(concentrations([128, 256, 512], 4, 0.03), (c) => c.toFixed(4))).toEqual(['0.1530', '0.1082', '0.0765'])
  })
})

describe('budget decomposition (docs/engine.md §8.8)', () => {
  it('α = β − 0.05 under the defaults', () => {
    const o = resolveOptions()
    expect(o.delta).toBe(0.03)
    expect(o.epsAct).toBe(0.02)
    for (const beta of [0.05, 0.1, 0.2, 0.35]) expect(actionAlpha(beta, o.delta, o.epsAct)).toBeCloseTo(beta - 0.05, 15)
    expect(actionAlpha(0.05, o.delta, o.epsAct)).toBeLessThanOrEqual(1e-17)
  })

  it('λ grid is 0.25..5.00 in exact steps of 0.25', () => {
    expect(LAMBDA_GRID).toHaveLength(20)
    expect(LAMBDA_GRID[0]).toBe(0.25)
    expect(LAMBDA_GRID[19]).toBe(5)
    expect(LAMBDA_GRID[2]).toBe(0.75)
  })

  it('K_used keeps k ≤ |D_loc| in ascending order', () => {
    expect(usableKs([128, 256, 512], 300)).toEqual([128, 256])
    expect(usableKs([128, 256, 512], 127)).toEqual([])
    expect(resolveOptions({ ks: [512, 128, 256] }).ks).toEqual([128, 256, 512])
  })

  it('ê_T = 1 − mean z at the final round', () => {
    expect(finalRoundError([[0, 1], [1, 0], [0, 1], [1, 1]], 2)).toBe(0.25)
  })
})
