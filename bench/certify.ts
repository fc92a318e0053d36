/**
 * `npm run bench -- certify`: the act-or-defer certificate at scale, on the clean council
 * with 4 rounds (3 seats, K = 2), for both state sources of docs/engine.md §8.2.
 * - decide 100,000 tasks × 4 rounds against 10,000 calibration tasks (≤ 2 s): per task-round the
 *   deployed posterior, Ŷ_t and U_t, then the k-NN bounds and the stopping rule — vs the states alone
 *   (the aggregator's share of the work, not the certificate's);
 * - build the certificate (ECDFs, smoother, modulus, k-NN indices) on 10,000 calibration tasks
 *   (≤ 3 s) — the out-of-fold council fit that feeds it is reported beside it, without a target;
 * - the k-NN neighbourhoods of 2,000 of those queries, uncached, through the flatbush index vs brute
 *   force over D_loc (every distance, a sort for h, then the tie-complete sums): the index's gain.
 *   Both must give identical neighbourhoods, or the suite throws.
 */
import {
  buildActOrDefer, buildTallies, DEFAULT_METHOD, fitCouncil, SeatIndex, taskRounds, type ActOrDefer, type StateSource, type TaskTallies
} from '../src/main/engine'
import { buildCertificate } from '../src/main/engine/certificate'
import { cleanCouncilConfig, generateCouncilArray } from '../src/main/sim'
import { medianMs, type BenchSuite, type Figure } from './figure'

const BUDGET = { kind: 'absolute', beta: 0.2 } as const

function council(tasks: number, seed: number, prefix: string, seats: SeatIndex): TaskTallies[] {
  return generateCouncilArray({ ...cleanCouncilConfig({ tasks, seed }), rounds: 4, taskPrefix: prefix }).map((t) => buildTallies(t, seats))
}

const fig = (name: string, value: number, target: number | null, reference: Figure['reference'], note?: string): Figure => ({
  suite: 'certify', name, value, unit: 'ms', target, better: 'lower', reference, note
})

/** The D_loc rows of round t in the normalised space, with their Z. */
function locRows(aod: ActOrDefer, t: number): { x: Float64Array; y: Float64Array; z: Uint8Array } {
  const cert = aod.certificate
  const byId = new Map(aod.calibration.map((c) => [c.id, c]))
  const n = cert.locIds.length
  const x = new Float64Array(n)
  const y = new Float64Array(n)
  const z = new Uint8Array(n)
  cert.locIds.forEach((id, i) => {
    const c = byId.get(id)!
    x[i] = cert.rounds[t].cdfP1.count(c.states[t].p1) / cert.size
    y[i] = cert.rounds[t].cdfDelta.count(c.states[t].delta) / cert.size
    z[i] = c.z[t]
  })
  return { x, y, z }
}

/** Brute force: every squared distance, the k-th smallest by sorting, then every row with d² ≤ h². */
function bruteForce(rows: { x: Float64Array; y: Float64Array; z: Uint8Array }, qx: number, qy: number, ks: readonly number[], d2: Float64Array): number[] {
  const n = rows.x.length
  for (let i = 0; i < n; i++) {
    const dx = rows.x[i] - qx
    const dy = rows.y[i] - qy
    d2[i] = dx * dx + dy * dy
  }
  const sorted = d2.slice().sort()
  const out: number[] = []
  for (const k of ks) {
    const h2 = sorted[k - 1]
    let count = 0
    let sumZ = 0
    for (let i = 0; i < n; i++) {
      if (d2[i] <= h2) {
        count++
        sumZ += rows.z[i]
      }
    }
    out.push(h2, count, sumZ)
  }
  return out
}

async function knnFigures(aod: ActOrDefer, scored: readonly TaskTallies[], state: StateSource): Promise<Figure[]> {
  const cert = aod.certificate
  const T = aod.T
  // 2,000 of the batch's own queries, spread over it: (round, normalised state).
  const queries: [number, number, number][] = []
  for (let i = 0; queries.length < 2000; i += Math.floor(scored.length / 500)) {
    const r = taskRounds(aod.fits.deployed, scored[i % scored.length], T, state, aod.fits.seed)
    for (let t = 0; t < T; t++) {
      const round = cert.rounds[t]
      queries.push([t, round.cdfP1.count(r.states[t].p1) / cert.size, round.cdfDelta.count(r.states[t].delta) / cert.size])
    }
  }
  const rows = Array.from({ length: T }, (_, t) => locRows(aod, t))
  const d2 = new Float64Array(cert.locIds.length)
  for (const [t, qx, qy] of queries.slice(0, 200)) {
    const a = cert.rounds[t].local.query(qx, qy, cert.kUsed, -1)
    const b = bruteForce(rows[t], qx, qy, cert.kUsed, d2)
    cert.kUsed.forEach((_, j) => {
      if (a.h2[j] !== b[3 * j] || a.count[j] !== b[3 * j + 1] || a.sumZ[j] !== b[3 * j + 2]) throw new Error(`k-NN mismatch at round ${t} (${qx}, ${qy})`)
    })
  }
  const indexMs = await medianMs(() => {
    for (const [t, qx, qy] of queries) cert.rounds[t].local.query(qx, qy, cert.kUsed, -1)
  })
  const bruteMs = await medianMs(() => {
    for (const [t, qx, qy] of queries) bruteForce(rows[t], qx, qy, cert.kUsed, d2)
  }, 3)
  return [
    fig(`k-NN neighbourhoods, 2,000 uncached queries over D_loc = ${cert.locIds.length} rows (${state})`, indexMs, null, { name: 'brute force', value: bruteMs },
      `index gain ×${(bruteMs / indexMs).toFixed(0)}`)
  ]
}

export const certify: BenchSuite = {
  name: 'certify',
  summary: 'act-or-defer: decide 100k×4 vs 10k calibration (≤ 2 s), build on 10k (≤ 3 s), k-NN index vs brute force',
  async run() {
    const seats = new SeatIndex()
    const cal = council(10_000, 11, 'cal-', seats)
    const scored = council(100_000, 12, 'new-', seats)
    const figures: Figure[] = []
    let t0 = performance.now()
    const fits = fitCouncil({ method: DEFAULT_METHOD, hyper: null, calibration: cal, seed: 0 })
    const fitMs = performance.now() - t0
    figures.push(fig(`fit council on 10k × 4: 5 out-of-fold CV fits + deployed CV fit (${DEFAULT_METHOD}, the default)`, fitMs, null, null, `hyper ${JSON.stringify(fits.deployed.hyper)}`))
    for (const state of ['social', 'posterior'] as const) {
      t0 = performance.now()
      const aod = buildActOrDefer(fits, { state })
      const statesMs = performance.now() - t0
      const buildMs = await medianMs(() => buildCertificate(aod.calibration, { seed: 0 }))
      figures.push(fig(`build certificate on 10k × 4 (${state}; smoothers ${aod.certificate.rounds.map((r) => r.smoother).join('/')})`, buildMs, 3000, null,
        `out-of-fold states of C ${statesMs.toFixed(0)} ms (once per fit)`))
      let acted = 0
      const decideMs = await medianMs(() => {
        acted = aod.decide(scored, BUDGET).tasks.filter((d) => d.decision === 'act').length
      }, 3)
      const floorMs = await medianMs(() => {
        for (const t of scored) taskRounds(fits.deployed, t, aod.T, state, 0)
      }, 3)
      figures.push(fig(`decide 100k × 4 vs 10k calibration (${state}, β = 0.2)`, decideMs, 2000, { name: 'states alone', value: floorMs },
        `acted ${(acted / scored.length).toFixed(3)}`))
      figures.push(...(await knnFigures(aod, scored, state)))
    }
    return figures
  }
}
