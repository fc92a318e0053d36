import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Trace } from '@shared/trace'
import { dawidSkenePerTask } from '../../../src/main/engine/dawid-skene-per-task'
import { DsAggregator } from '../../../src/main/engine/ds-aggregator'
import { DsPerTaskAggregator } from '../../../src/main/engine/ds-per-task'
import { fitAggregator } from '../../../src/main/engine/fit'
import { MethodRefused } from '../../../src/main/engine/methods'
import { runEvaluate } from '../../../src/main/engine/run-evaluate'
import { runPosterior } from '../../../src/main/engine/run-posterior'
import { SeatIndex } from '../../../src/main/engine/seat-index'
import { buildTallies } from '../../../src/main/engine/tallies'
import { readLabelCsvFile } from '../../../src/main/io'
import { datasetDir } from '../../../scripts/data-dir'
import { dataset, itWith } from '../../helpers/prerequisites'
import { council, rng, votes } from './helpers'

/**
 * ds-em (one-coin) on per-task candidate sets (docs/engine.md §6), and bit-exactness on one shared set:
 * fixtures/ds-em-shared-set.json holds `posterior`/`evaluate` output of ds-em captured with the code
 * before per-task sets existed (commit fac291f; bluebird as a SHA-256 of its posteriors only, the
 * dataset carries no license).
 */
interface Captured {
  sha256: string
  answers?: string[]
  posteriors?: number[][]
  evaluate: object
}
const before = JSON.parse(readFileSync(new URL('./fixtures/ds-em-shared-set.json', import.meta.url), 'utf8')) as Record<string, Captured>

function crowdkitTraces(): Trace[] {
  const csv = readFileSync(new URL('./fixtures/crowdkit-ds/answers.csv', import.meta.url), 'utf8').trim().split('\n').slice(1).map((l) => l.split(','))
  const labels = [...new Set(csv.map((r) => r[2]))]
  return [...new Set(csv.map((r) => r[0]))].map((task) => votes(task, labels, csv.filter((r) => r[0] === task).map((r) => [r[1], r[2]] as [string, string])))
}

const ZHANG = datasetDir('zhang-spectral-em')
const BLUEBIRD = join(ZHANG, 'bluebird_crowd.txt')

/** Posteriors of `posterior --method ds-em`, in file and candidate order. */
function dsEmPosteriors(traces: Trace[]): { flat: Float64Array; answers: (string | null)[]; rows: number[][] } {
  const out = runPosterior({ method: 'ds-em', traces, calibration: [], hyper: null, seed: 0 })
  const rows = out.map((o, i) => traces[i].candidates.map((c) => o.posterior[c]))
  return { flat: Float64Array.from(rows.flat()), answers: out.map((o) => o.answer), rows }
}

const sha256 = (x: Float64Array): string => createHash('sha256').update(Buffer.from(x.buffer, x.byteOffset, x.byteLength)).digest('hex')

describe('ds-em on one shared candidate set: bit-exact with the code before per-task sets', () => {
  const cases: [string, () => Promise<Trace[]> | Trace[]][] = [
    ['crowdkit', crowdkitTraces],
    ['council-k3', () => council({ n: 60, seed: 7, reliabilities: [0.8, 0.65, 0.55, 0.7], K: 3, rounds: 2 })]
  ]
  for (const [name, load] of cases) {
    it(`${name}: every posterior Object.is-equal, the same answers and evaluate line`, async () => {
      const traces = await load()
      const { flat, answers, rows } = dsEmPosteriors(traces)
      const exp = before[name]
      expect(rows.length).toBe(exp.posteriors!.length)
      rows.forEach((row, i) => row.forEach((p, g) => expect(Object.is(p, exp.posteriors![i][g]), `${name} task ${i} candidate ${g}`).toBe(true)))
      expect(sha256(flat)).toBe(exp.sha256)
      expect(answers).toEqual(exp.answers)
      expect(runEvaluate({ method: 'ds-em', traces, folds: 5, seed: 0 })).toEqual(exp.evaluate)
    })
  }

  itWith(dataset('zhang-spectral-em'), 'bluebird (zhang-spectral-em): the posteriors\' bytes hash the same; evaluate identical', async () => {
    const res = await readLabelCsvFile(BLUEBIRD, { columns: ['task', 'worker', 'label'], delimiter: 'space', header: false, gold: join(ZHANG, 'bluebird_truth.txt') })
    expect(res.errors).toEqual([])
    expect(sha256(dsEmPosteriors(res.traces).flat)).toBe(before.bluebird.sha256)
    expect(runEvaluate({ method: 'ds-em', traces: res.traces, folds: 5, seed: 0 })).toEqual(before.bluebird.evaluate)
  })

  it('a shared set in different candidate orders is still one set: the shared-set path', () => {
    const seats = new SeatIndex()
    const pool = [votes('a', ['x', 'y'], [['A', 'x'], ['B', 'x']]), votes('b', ['y', 'x'], [['A', 'y'], ['B', 'x']])].map((t) => buildTallies(t, seats))
    expect(fitAggregator('ds-em', [], {}, 0, { pool })).toBeInstanceOf(DsAggregator)
    const mixed = [...pool, buildTallies(votes('c', ['x', 'z'], [['A', 'z']]), seats)]
    expect(fitAggregator('ds-em', [], {}, 0, { pool: mixed })).toBeInstanceOf(DsPerTaskAggregator)
    expect(() => fitAggregator('ds-em-full', [], {}, 0, { pool: mixed })).toThrow(MethodRefused)
  })
})

/**
 * An MMLU-Pro-like council: each task its own options (4 to 10, their own texts), five seats of
 * different accuracy; a wrong seat picks a uniformly random wrong option.
 */
function mmluLike(n: number, seed: number, acc: number[]): Trace[] {
  const rand = rng(seed)
  return Array.from({ length: n }, (_, i) => {
    const K = 4 + Math.floor(rand() * 7)
    const candidates = Array.from({ length: K }, (_, k) => `q${i}-opt${k}`)
    const gold = Math.floor(rand() * K)
    const answers = acc.map((a, s): [string, string] => {
      const pick = rand() < a ? gold : (gold + 1 + Math.floor(rand() * (K - 1))) % K
      return [`S${s}`, candidates[pick]]
    })
    return votes(`q${i}`, candidates, answers.filter(() => rand() < 0.9), candidates[gold])
  })
}

describe('ds-em (one-coin) on per-task candidate sets (docs/engine.md §6)', () => {
  const acc = [0.85, 0.7, 0.55, 0.45, 0.3]
  const traces = mmluLike(400, 21, acc)

  it('each posterior is one E-step of the returned accuracies: acc_i on its answer, (1 − acc_i)/(K_t − 1) elsewhere, uniform prior', () => {
    const seats = new SeatIndex()
    const pool = traces.map((t) => buildTallies(t, seats))
    const agg = fitAggregator('ds-em', [], null, 0, { pool })
    expect(agg).toBeInstanceOf(DsPerTaskAggregator)
    const report = agg.seatReport(seats)
    const accOf = new Map(report.map((r) => [r.seat, r.accuracy!]))
    for (const t of pool) {
      // In linear space, independently of the engine's log-space E-step.
      const lik = t.candidates.map((_, g) => {
        let l = 1 / t.K
        for (let s = 0; s < t.S; s++) {
          const a = accOf.get(t.seatIds[s])!
          l *= t.vote0[s] === g ? a : (1 - a) / (t.K - 1)
        }
        return l
      })
      const z = lik.reduce((x, y) => x + y, 0)
      const p = agg.posteriorAt(t)
      expect(p.length).toBe(t.K)
      lik.forEach((l, g) => expect(p[g]).toBeCloseTo(l / z, 12))
      // A held-out task (not in the pool) gets the same one E-step.
      const fresh = buildTallies({ ...traces[pool.indexOf(t)], task: `${t.task}-again` }, seats)
      lik.forEach((l, g) => expect(agg.posteriorAt(fresh)[g]).toBeCloseTo(l / z, 12))
    }
  })

  it('recovers the seats\' order of accuracy, and beats majority on the scored gold', () => {
    const seats = new SeatIndex()
    const pool = traces.map((t) => buildTallies(t, seats))
    const report = fitAggregator('ds-em', [], null, 0, { pool }).seatReport(seats)
    const fitted = acc.map((_, s) => report.find((r) => r.seat === `S${s}`)!.accuracy!)
    for (let s = 1; s < fitted.length; s++) expect(fitted[s]).toBeLessThan(fitted[s - 1])
    fitted.forEach((a, s) => expect(Math.abs(a - acc[s])).toBeLessThan(0.08))
    const hits = (method: 'ds-em' | 'majority') =>
      runPosterior({ method, traces, calibration: [], hyper: null, seed: 0 }).filter((o, i) => o.answer === traces[i].gold).length
    expect(hits('ds-em')).toBeGreaterThan(hits('majority'))
  })

  it('runs in posterior and evaluate (ds-em-full still refuses), and does not depend on candidate order', () => {
    const r = runEvaluate({ method: 'ds-em', traces, folds: 5, seed: 0 })
    if ('refused' in r) throw new Error(r.refused)
    expect(r.selected).toEqual([{}, {}, {}, {}, {}])
    expect(r.accuracy).toBeGreaterThan(0.8)
    expect(runEvaluate({ method: 'ds-em-full', traces, folds: 5, seed: 0 })).toMatchObject({ method: 'ds-em-full', refused: expect.stringMatching(/task "q1"/) })
    const a = runPosterior({ method: 'ds-em', traces, calibration: [], hyper: null, seed: 0 })
    const reversed = traces.map((t) => ({ ...t, candidates: [...t.candidates].reverse() }))
    const b = runPosterior({ method: 'ds-em', traces: reversed, calibration: [], hyper: null, seed: 0 })
    a.forEach((o, i) => {
      for (const c of traces[i].candidates) expect(b[i].posterior[c]).toBeCloseTo(o.posterior[c], 12)
    })
  })

  it('a shared-set fit scores a task of another set by one per-task E-step (ds-em); ds-em-full refuses it', () => {
    const seats = new SeatIndex()
    const pool = council({ n: 80, seed: 4, reliabilities: [0.85, 0.6, 0.7], K: 3, rounds: 1 }).map((t) => buildTallies(t, seats))
    const agg = fitAggregator('ds-em', [], null, 0, { pool })
    expect(agg).toBeInstanceOf(DsAggregator)
    const accOf = new Map(agg.seatReport(seats).map((r) => [r.seat, r.accuracy!]))
    const other = buildTallies(votes('o', ['p', 'q', 'r', 's'], [['S1', 'q'], ['S2', 'p'], ['S3', 'q'], ['S9', 's']]), seats)
    const lik = other.candidates.map((c) => [['S1', 'q'], ['S2', 'p'], ['S3', 'q']].reduce((l, [seat, a]) => {
      const acc = accOf.get(seat)!
      return l * (a === c ? acc : (1 - acc) / 3)
    }, 1 / 4)) // S9 never voted in the pool: left out
    const z = lik.reduce((x, y) => x + y, 0)
    const p = agg.posteriorAt(other)
    lik.forEach((l, g) => expect(p[g]).toBeCloseTo(l / z, 12))
    expect(() => fitAggregator('ds-em-full', [], null, 0, { pool }).posteriorAt(other)).toThrow(MethodRefused)
  })

  it('EM: the log-likelihood never decreases, accuracies stay clipped, a task without votes stays uniform', () => {
    const data = {
      nTasks: 3, nSeats: 2, K: Int32Array.from([2, 3, 4]), offset: Int32Array.from([0, 2, 5, 9]),
      start: Int32Array.from([0, 2, 4, 4]), seat: Int32Array.from([0, 1, 0, 1]), label: Int32Array.from([0, 0, 2, 2])
    }
    const res = dawidSkenePerTask(data)
    for (const a of res.accuracy) expect(a).toBeLessThanOrEqual(1 - 1e-6)
    expect([...res.posteriors.subarray(5, 9)]).toEqual([0.25, 0.25, 0.25, 0.25])
    let prev = -Infinity
    for (let it = 1; it <= 10; it++) {
      const ll = dawidSkenePerTask(data, { maxIter: it, tol: -Infinity }).logLik
      expect(ll).toBeGreaterThanOrEqual(prev - 1e-12)
      prev = ll
    }
    // No E-step: majority shares.
    expect([...dawidSkenePerTask(data, { maxIter: 0 }).posteriors.subarray(0, 5)]).toEqual([1, 0, 0, 0, 1])
  })
})
