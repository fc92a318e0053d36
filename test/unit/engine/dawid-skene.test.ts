import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { dawidSkene, type DsData } from '../../../src/main/engine/dawid-skene'
import { DsAggregator } from '../../../src/main/engine/ds-aggregator'
import { MethodRefused } from '../../../src/main/engine/methods'
import { runPosterior } from '../../../src/main/engine/run-posterior'
import { SeatIndex } from '../../../src/main/engine/seat-index'
import { buildTallies } from '../../../src/main/engine/tallies'
import type { Trace } from '@shared/trace'
import { council, votes } from './helpers'

const dir = new URL('./fixtures/crowdkit-ds/', import.meta.url)
const csv = readFileSync(new URL('answers.csv', dir), 'utf8').trim().split('\n').slice(1).map((l) => l.split(','))
type Table = Record<string, Record<string, number>>
const expected = JSON.parse(readFileSync(new URL('expected.json', dir), 'utf8')) as Record<'iter0' | 'iter1', {
  probas: Table; priors: Record<string, number>; errors_observed_given_true: Record<string, Table>
}>

/** Each CSV row → a round-0 propose by seat `worker`; candidates in order of first appearance. */
function fixtureTraces(): Trace[] {
  const labels = [...new Set(csv.map((r) => r[2]))]
  const tasks = [...new Set(csv.map((r) => r[0]))]
  return tasks.map((task) => votes(task, labels, csv.filter((r) => r[0] === task).map((r) => [r[1], r[2]] as [string, string])))
}

/** The fixture as DsData, with the engine's own tallies. */
function fixtureData(): { data: DsData; labels: string[]; tasks: string[]; workers: string[] } {
  const seats = new SeatIndex()
  const tallies = fixtureTraces().map((t) => buildTallies(t, seats))
  const start = new Int32Array(tallies.length + 1)
  const seat: number[] = []
  const label: number[] = []
  tallies.forEach((t, i) => {
    for (let s = 0; s < t.S; s++) {
      seat.push(t.seats[s])
      label.push(t.vote0[s])
    }
    start[i + 1] = seat.length
  })
  const data = { nTasks: tallies.length, nSeats: seats.size, K: 2, start, seat: Int32Array.from(seat), label: Int32Array.from(label) }
  return { data, labels: [...tallies[0].candidates], tasks: tallies.map((t) => t.task), workers: seats.ids }
}

describe('Dawid–Skene EM (docs/engine.md §6) against crowd-kit test_dawid_skene_step_by_step', () => {
  const { data, labels, tasks, workers } = fixtureData()
  for (const [iter, maxIter] of [['iter0', 0], ['iter1', 1]] as const) {
    it(`matches ${iter}: posteriors, priors and error matrices within ±0.005`, () => {
      const res = dawidSkene(data, { full: true, maxIter })
      const exp = expected[iter]
      tasks.forEach((task, t) => labels.forEach((l, g) => expect(Math.abs(res.posteriors[t * 2 + g] - exp.probas[task][l])).toBeLessThanOrEqual(0.005)))
      labels.forEach((l, g) => expect(Math.abs(res.last.priors[g] - exp.priors[l])).toBeLessThanOrEqual(0.005))
      workers.forEach((w, s) => labels.forEach((obs, o) => labels.forEach((tru, g) => {
        expect(Math.abs(res.last.errors[(s * 2 + o) * 2 + g] - exp.errors_observed_given_true[w][obs][tru])).toBeLessThanOrEqual(0.005)
      })))
    })
  }

  it('converges (log-likelihood gain < 1e-5) and reproduces crowd-kit\'s iter-1 labels', () => {
    const res = dawidSkene(data, { full: true })
    expect(res.iterations).toBeLessThan(100)
    const answers = tasks.map((_, t) => labels[res.posteriors[t * 2] > res.posteriors[t * 2 + 1] ? 0 : 1])
    expect(answers).toEqual(['yes', 'yes', 'no', 'yes', 'no']) // t1..t5, as in expected.json's note
    // The E-step's log-likelihood never decreases along EM.
    let prev = -Infinity
    for (let it = 1; it <= res.iterations; it++) {
      const ll = dawidSkene(data, { full: true, maxIter: it, tol: -Infinity }).logLik
      expect(ll).toBeGreaterThanOrEqual(prev - 1e-12)
      prev = ll
    }
  })

  it('one-coin ds-em: a single clipped accuracy per seat, rows sum to 1', () => {
    const res = dawidSkene(data, { full: false })
    for (let s = 0; s < data.nSeats; s++) {
      const acc = res.last.errors[(s * 2) * 2]
      expect(acc).toBeGreaterThanOrEqual(1e-6)
      expect(acc).toBeLessThanOrEqual(1 - 1e-6)
      expect(res.last.errors[(s * 2 + 1) * 2 + 1]).toBeCloseTo(acc, 15)
      expect(res.last.errors[(s * 2 + 1) * 2] + acc).toBeCloseTo(1, 15)
    }
  })

  it('runPosterior(ds-em-full) returns the EM posteriors of the scored tasks', () => {
    const out = runPosterior({ method: 'ds-em-full', traces: fixtureTraces(), calibration: [], hyper: null, seed: 0 })
    const res = dawidSkene(data, { full: true })
    out.forEach((o, t) => expect(o.posterior.no).toBe(res.posteriors[t * 2 + labels.indexOf('no')]))
    expect(out.every((o) => Object.keys(o.weights).length === 0)).toBe(true)
  })

  it('ds-em-full refuses mixed candidate sets, naming the first differing task', () => {
    const traces = [votes('a', ['x', 'y'], [['A', 'x']]), votes('b', ['y', 'x'], [['A', 'x']]), votes('c', ['x', 'z'], [['A', 'x']])]
    expect(() => new DsAggregator('ds-em-full', traces.map((t) => buildTallies(t, new SeatIndex())))).toThrow(MethodRefused)
    expect(() => runPosterior({ method: 'ds-em-full', traces, calibration: [], hyper: null, seed: 0 })).toThrow(/task "c"/)
  })

  it('shows the K = 2 label-switching failure: a wrong-majority council is learned upside down', () => {
    // Two persistent adversaries of three: unsupervised EM has no way to tell which mode is truth.
    const traces = council({ n: 300, seed: 11, reliabilities: [0.9, 0.5, 0.5], adversaries: [1, 2], rounds: 1 })
    const out = runPosterior({ method: 'ds-em', traces, calibration: [], hyper: null, seed: 0 })
    const acc = out.filter((o, i) => o.answer === traces[i].gold).length / out.length
    expect(acc).toBeLessThan(0.2)
    // Supervision fixes it: per-agent BDA with labels on another batch of the same council.
    const cal = council({ n: 200, seed: 12, reliabilities: [0.9, 0.5, 0.5], adversaries: [1, 2], rounds: 1, prefix: 'c' })
    const sup = runPosterior({ method: 'per-agent', traces, calibration: cal, hyper: null, seed: 0 })
    expect(sup.filter((o, i) => o.answer === traces[i].gold).length / sup.length).toBeGreaterThan(0.85)
  })
})
