import { describe, expect, it } from 'vitest'
import { fitAggregator } from '../../../src/main/engine/fit'
import { runEvaluate, type EvaluateResult } from '../../../src/main/engine/run-evaluate'
import { runPosterior } from '../../../src/main/engine/run-posterior'
import { SeatIndex } from '../../../src/main/engine/seat-index'
import { buildTallies } from '../../../src/main/engine/tallies'
import type { Method } from '../../../src/main/engine/methods'
import { council } from './helpers'

const evaluate = (method: Method, traces: ReturnType<typeof council>): EvaluateResult => {
  const r = runEvaluate({ method, traces, folds: 5, seed: 0 })
  if ('refused' in r) throw new Error(r.refused)
  return r
}

describe('persistent adversary (BDA §7): K = 2, seats 0.7 / 0.7 / always wrong, 3 rounds, 500 tasks', () => {
  const traces = council({ n: 500, seed: 101, reliabilities: [0.7, 0.7, 0.5], adversaries: [2] })

  it('nested CV: per-agent ≥ 0.9 while majority collapses toward chance', () => {
    const perAgent = evaluate('per-agent', traces)
    const majority = evaluate('majority', traces)
    // Observed: per-agent 1.000 (Brier 0.003, ECE_ew 0.012), majority 0.496 (ECE_ew 0.201).
    expect(perAgent.accuracy).toBeGreaterThanOrEqual(0.9)
    expect(majority.accuracy).toBeLessThan(0.6)
    expect(perAgent.brier).toBeLessThan(majority.brier)
    // shared BDA has no per-seat resolution and follows the corrupted majority
    expect(evaluate('shared', traces).accuracy).toBeLessThan(0.6)
    for (const h of perAgent.selected) expect(h.kappa).toBeGreaterThan(0)
  })

  it('the adversary is fitted below chance and weighs negatively', () => {
    const seats = new SeatIndex()
    const L = traces.map((t) => buildTallies(t, seats))
    const report = fitAggregator('per-agent', L, null, 0).seatReport(seats)
    const adv = report.find((r) => r.seat === 'S3')!
    expect(adv.r!).toBeLessThan(0.5)
    expect(adv.weight!).toBeLessThan(0)
    for (const s of ['S1', 'S2']) expect(report.find((r) => r.seat === s)!.weight!).toBeGreaterThan(0)
    const out = runPosterior({ method: 'per-agent', traces: traces.slice(0, 5), calibration: traces.slice(5), hyper: null, seed: 0 })
    expect(out[0].weights.S3).toBeLessThan(0)
  })
})

describe('clean K = 3 council (BDA §6, E.4–E.5): the temperature repairs one-coin over-confidence', () => {
  it('tempered ECE_ew is well below per-agent\'s at similar accuracy (nested CV, 1,500 tasks)', () => {
    const traces = council({ n: 1500, seed: 103, reliabilities: [0.7, 0.6, 0.6], K: 3 })
    const perAgent = evaluate('per-agent', traces)
    const tempered = evaluate('tempered', traces)
    // Observed: per-agent acc 0.749, ECE_ew 0.111, Brier 0.383; tempered acc 0.748, ECE_ew 0.023, Brier 0.357.
    expect(tempered.eceEw).toBeLessThan(perAgent.eceEw / 2)
    expect(tempered.brier).toBeLessThan(perAgent.brier)
    expect(Math.abs(tempered.accuracy - perAgent.accuracy)).toBeLessThan(0.02)
  })
})
