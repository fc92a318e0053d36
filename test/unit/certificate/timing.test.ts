import { describe, expect, it } from 'vitest'
import { buildCertificate, certifyWith } from '../../../src/main/engine/certificate'
import { simulateCouncil } from './sim'

/**
 * Scale check: build on 10,000 calibration tasks × 4 rounds and certify 100,000 tasks × 4 rounds,
 * for both state kinds of §8.2, and re-certify C itself (every query leaves itself out). Its speed
 * is a benchmark figure (`npm run bench -- certify`), never asserted here.
 */
describe('certificate at scale', () => {
  for (const state of ['social', 'posterior'] as const) {
    it(`builds on 10k × 4 and certifies 100k × 4 (${state} state)`, () => {
      const cal = simulateCouncil(10_000, `timing-cal-${state}`, { state })
      const scored = simulateCouncil(100_000, `timing-scored-${state}`, { state, idPrefix: 's' })
      const cert = buildCertificate(cal)
      const decisions = certifyWith(cert, scored, 0.2)
      expect(decisions).toHaveLength(100_000)
      expect(decisions.some((d) => d.decision === 'act')).toBe(true)
      expect(decisions.some((d) => d.decision === 'defer')).toBe(true)
      expect(certifyWith(cert, cal, 0.2)).toHaveLength(10_000)
    })
  }
})
