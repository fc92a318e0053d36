/**
 * Validity of the act-or-defer certificate (docs/engine.md §8): states drawn from a
 * fixed discrete law with a known q(U), Z ~ Bernoulli(q(U)) from the simulator's seeded generator;
 * per repetition |C| = 2,000 calibration tasks and 2,000 scored tasks, each drawn afresh; 200 seeded
 * repetitions per (bound, law), at β = 0.20 (δ = 0.03, ε_act = 0.02, so 1 − α = 0.85). Both bounds
 * see the same draws. Pass, per (bound, law):
 * - mean WA ≤ β (the guarantee is in expectation over the calibration draw);
 * - repetitions with WA > β ≤ 12, the 99th percentile of Bin(200, δ = 0.03);
 * - mean Act ≥ 0.5 × the oracle's Act (the oracle knows q and acts at the first round with
 *   q(U_t) ≥ 1 − α): the certificate is valid without being vacuous.
 * Each law is demanding: acting on every task at round 0 would cost WA > β (asserted too, so the WA
 * checks can fail). The whole file is capped at 5 minutes (a repetition past the cap fails loudly); it prints its
 * duration and, per (bound, law), mean Act, oracle Act, mean Acc|Act, mean and max WA, the
 * repetitions over β, the share of tasks acted on in a cell below the line (q < 1 − α, which the
 * guarantee allows but a tight bound keeps small), and the bound's own coverage: for the worst
 * (cell, round), the repetitions whose L_t at that cell exceeds its q (≤ δ of them in expectation
 * where the neighbourhood stays inside the cell; the bias envelope is an estimate elsewhere).
 */
import { afterAll, describe, expect, it } from 'vitest'
import { actionAlpha, buildCertificate, certifyWith, certificateMetrics, computeBounds, type BoundKind } from '../../src/main/engine/certificate'
import { createRng } from '../../src/main/sim/prng'
import { reportSuite } from './report'
import { ONE_ROUND, sampleLaw, TWO_ROUNDS, type StateLaw } from './validity/laws'

const BETA = 0.2
const DELTA = 0.03
const EPS_ACT = 0.02
const SIZE = 2000
const REPS = 200
/** The 99th percentile of Bin(200, 0.03). */
const MAX_OVER = 12
const CAP_MS = 5 * 60_000

const t0 = performance.now()
const figures: Record<string, string> = {}

afterAll(() => reportSuite('certificate-validity', t0, { reps: `${REPS} per (bound, law)`, β: BETA, ...figures }))

interface Rep {
  act: number
  oracleAct: number
  accAct: number | null
  wa: number
  belowLine: number
  /** WA had every task been acted on at round 0. */
  actAllWa: number
  /** Per (cell, round), at [cell·T + t]: 1 when L_t at the cell exceeds its q. */
  overQ: Uint8Array
}

/** One repetition: fresh C and scored draws (seeded by law and rep, so both bounds share them). */
function repetition(law: StateLaw, bound: BoundKind, rep: number): Rep {
  const rng = createRng(`certificate-validity:${law.name}:${rep}`)
  const cal = sampleLaw(law, SIZE, rng, 'c')
  const scored = sampleLaw(law, SIZE, rng, 's')
  const cert = buildCertificate(cal.tasks, { seed: rep, bound, delta: DELTA, epsAct: EPS_ACT })
  const decisions = certifyWith(cert, scored.tasks, BETA)
  const m = certificateMetrics(
    decisions,
    scored.tasks.map((t) => t.z),
    law.T,
    BETA
  )
  const line = 1 - actionAlpha(BETA, DELTA, EPS_ACT)
  let oracle = 0
  let below = 0
  scored.cells.forEach((path, i) => {
    if (path.some((c) => law.cells[c].q >= line)) oracle++
    const tau = decisions[i].stopRound
    if (tau !== null && law.cells[path[tau]].q < line) below++
  })
  const probes = law.cells.map((c, i) => ({ id: `probe${i}`, states: Array.from({ length: law.T }, () => c.state) }))
  const table = computeBounds(cert, probes)
  const overQ = Uint8Array.from(table.L, (L, o) => (L > law.cells[Math.floor(o / law.T)].q ? 1 : 0))
  const actAllWa = scored.tasks.filter((t) => t.z[0] === 0).length / SIZE
  return { act: m.act, oracleAct: oracle / SIZE, accAct: m.accAct, wa: m.wa, belowLine: below / SIZE, actAllWa, overQ }
}

const mean = (v: readonly number[]): number => v.reduce((a, b) => a + b, 0) / v.length

describe('certificate validity on known laws', () => {
  for (const law of [ONE_ROUND, TWO_ROUNDS]) {
    for (const bound of ['binomial', 'hoeffding'] as const) {
      it(`${bound}, ${law.name}: mean WA ≤ β, at most ${MAX_OVER} of ${REPS} repetitions over β, Act ≥ half the oracle's`, () => {
        const reps: Rep[] = []
        for (let rep = 0; rep < REPS; rep++) {
          const elapsed = performance.now() - t0
          if (elapsed > CAP_MS) {
            throw new Error(`certificate-validity: over its ${CAP_MS / 60_000}-minute cap (${(elapsed / 1000).toFixed(0)} s) at ${bound}, ${law.name}, repetition ${rep}`)
          }
          reps.push(repetition(law, bound, rep))
        }
        const wa = reps.map((r) => r.wa)
        const over = wa.filter((w) => w > BETA).length
        const act = mean(reps.map((r) => r.act))
        const oracle = mean(reps.map((r) => r.oracleAct))
        const accs = reps.map((r) => r.accAct).filter((a): a is number => a !== null)
        const overQ = Array.from(reps[0].overQ, (_, o) => reps.reduce((n, r) => n + r.overQ[o], 0))
        const worst = overQ.indexOf(Math.max(...overQ))
        figures[`${bound}/${law.name}`] =
          `Act ${act.toFixed(3)} (oracle ${oracle.toFixed(3)}), Acc|Act ${accs.length > 0 ? mean(accs).toFixed(3) : 'n/a'}, ` +
          `WA mean ${mean(wa).toFixed(4)} (acting on all: ${mean(reps.map((r) => r.actAllWa)).toFixed(4)}) max ${Math.max(...wa).toFixed(4)}, over β ${over}/${REPS}, acted below the line ${mean(reps.map((r) => r.belowLine)).toFixed(4)}, ` +
          `L > q in ${overQ[worst]}/${REPS} (worst: cell ${Math.floor(worst / law.T)} round ${worst % law.T})`
        console.log(`certificate-validity ${bound}, ${law.name}: ${figures[`${bound}/${law.name}`]}`)
        expect(mean(reps.map((r) => r.actAllWa))).toBeGreaterThan(BETA)
        expect(mean(wa)).toBeLessThanOrEqual(BETA)
        expect(over).toBeLessThanOrEqual(MAX_OVER)
        expect(act).toBeGreaterThanOrEqual(0.5 * oracle)
      })
    }
  }
})
