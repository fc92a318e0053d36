import { describe, expect, it } from 'vitest'
import { buildCertificate, certifyWith } from '../../../src/main/engine/certificate'
import { simulateCouncil } from './sim'

/**
 * Scale check (logged, loose bounds so a loaded CI box does not flake): build on 10,000
 * calibration tasks × 4 rounds, certify 100,000 tasks × 4 rounds, for both state kinds of §8.2.
 */
describe('certificate timings', () => {
  for (const state of ['social', 'posterior'] as const) {
    it(`builds on 10k × 4 and certifies 100k × 4 (${state} state)`, () => {
      const cal = simulateCouncil(10_000, `timing-cal-${state}`, { state })
      const scored = simulateCouncil(100_000, `timing-scored-${state}`, { state, idPrefix: 's' })
      let t0 = performance.now()
      const cert = buildCertificate(cal)
      const build = performance.now() - t0
      t0 = performance.now()
      const decisions = certifyWith(cert, scored, 0.2)
      const run = performance.now() - t0
      t0 = performance.now()
      certifyWith(cert, cal, 0.2) // every query leaves itself out
      const self = performance.now() - t0
      const acted = decisions.filter((d) => d.decision === 'act').length
      console.log(
        `${state}: build 10k×4 ${build.toFixed(0)} ms; certify 100k×4 ${run.toFixed(0)} ms (acted ${acted}); ` +
          `re-certify C itself ${self.toFixed(0)} ms`
      )
      expect(decisions).toHaveLength(100_000)
      expect(build).toBeLessThan(10_000)
      expect(run).toBeLessThan(10_000)
    })
  }
})
