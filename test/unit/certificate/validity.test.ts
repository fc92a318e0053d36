import { describe, expect, it } from 'vitest'
import {
  buildCertificate,
  computeBounds,
  riskAutomationFrontier,
  roundToGrid,
  type CalibrationTask
} from '../../../src/main/engine/certificate'
import { createRng, type Rng } from '../../../src/main/sim/prng'

/**
 * Known per-state correctness: q(p1, Δ) = 0.2 + 0.73·p1² + 0.02·Δ/p1 on posterior-grid states —
 * it tops out at 0.95, so acting always risks some wrong actions and the budget is really used.
 * A task has a latent strength u (skewed high); its state drifts up over the rounds;
 * Z_t ~ Bernoulli(q(U_t)) independently.
 */
function q(p1: number, delta: number): number {
  return 0.2 + 0.73 * p1 ** 2 + 0.02 * (delta / p1)
}

function simulate(rng: Rng, n: number, T: number, prefix: string): CalibrationTask[] {
  const out: CalibrationTask[] = []
  for (let i = 0; i < n; i++) {
    const u = rng.next() ** 0.4
    const states = []
    const z = []
    for (let t = 0; t < T; t++) {
      const raw = Math.min(1, Math.max(0.25, 0.25 + 0.9 * u + 0.07 * t + 0.1 * (rng.next() - 0.5)))
      const p1 = roundToGrid(raw)
      const delta = roundToGrid(raw * (1 - 0.1 * rng.next()))
      states.push({ p1, delta })
      z.push(rng.chance(q(p1, delta)) ? 1 : 0)
    }
    out.push({ id: `${prefix}${i}`, states, z })
  }
  return out
}

describe('validity (MAPIE-style repeated calibrate-then-certify, AoD Thm. 3)', () => {
  it('mean wrong-action rate stays within β over many seeded runs', () => {
    const runs = 40
    const betas = [0.1, 0.15, 0.2, 0.25, 0.3, 0.4]
    const rng = createRng('validity')
    const wa = betas.map(() => [] as number[])
    const act = betas.map(() => [] as number[])
    for (let r = 0; r < runs; r++) {
      const cal = simulate(rng, 2000, 3, `c${r}-`)
      const test = simulate(rng, 2000, 3, `s${r}-`)
      const table = computeBounds(buildCertificate(cal, { seed: r }), test)
      const frontier = riskAutomationFrontier(
        table,
        test.map((t) => t.z),
        betas
      )
      frontier.forEach((p, b) => {
        wa[b].push(p.wa)
        act[b].push(p.act)
      })
    }
    betas.forEach((beta, b) => {
      const mean = wa[b].reduce((a, v) => a + v, 0) / runs
      const max = Math.max(...wa[b])
      const over = wa[b].filter((v) => v > beta).length
      const meanAct = act[b].reduce((a, v) => a + v, 0) / runs
      console.log(
        `β ${beta}: mean WA ${mean.toFixed(4)}, per-run max ${max.toFixed(4)}, runs over β ${over}/${runs}, mean Act ${meanAct.toFixed(3)}`
      )
      expect(mean).toBeLessThanOrEqual(beta)
      // The guarantee bounds WA by β with probability ≥ 1 − δ per run; allow the δ share.
      expect(over).toBeLessThanOrEqual(Math.ceil(0.03 * runs))
    })
    // Non-vacuous: at β = 0.25 the certificate acts on a large share.
    expect(act[3].reduce((a, v) => a + v, 0) / runs).toBeGreaterThan(0.3)
  })

  it('activation is monotone non-decreasing in β on a fixed simulation', () => {
    const rng = createRng('monotone')
    const cal = simulate(rng, 3000, 3, 'c')
    const test = simulate(rng, 3000, 3, 's')
    const table = computeBounds(buildCertificate(cal), test)
    const betas = Array.from({ length: 60 }, (_, i) => 0.01 + i * 0.01)
    const frontier = riskAutomationFrontier(
      table,
      test.map((t) => t.z),
      betas
    )
    for (let i = 1; i < frontier.length; i++) expect(frontier[i].act).toBeGreaterThanOrEqual(frontier[i - 1].act)
    expect(frontier[0].act).toBe(0) // α ≤ 0
    expect(frontier[frontier.length - 1].act).toBeGreaterThan(0)
    // Rounds only shrink as β grows (acting earlier or at all).
    for (let i = 1; i < frontier.length; i++) expect(frontier[i].rnd).toBeLessThanOrEqual(frontier[i - 1].rnd)
  })
})
