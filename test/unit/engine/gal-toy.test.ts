import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import type { Trace } from '@shared/trace'
import { cvSelect } from '../../../src/main/engine/cv-select'
import { fitAggregator } from '../../../src/main/engine/fit'
import { runEvaluate } from '../../../src/main/engine/run-evaluate'
import { runPosterior } from '../../../src/main/engine/run-posterior'
import { SeatIndex } from '../../../src/main/engine/seat-index'
import { buildTallies } from '../../../src/main/engine/tallies'
import { votes } from './helpers'

// Get-Another-Label's AdultContent toy set: tab-separated worker, task, label (column order!).
const rows = readFileSync(new URL('./fixtures/gal-toy/labels.txt', import.meta.url), 'utf8').trim().split('\n').map((l) => l.split('\t'))
// Truth from its README (evaluation.txt disagrees on url3/url4; the two perfect workers agree with the README).
const truth: Record<string, string> = { url1: 'notporn', url2: 'porn', url3: 'notporn', url4: 'porn', url5: 'notporn' }
const labels = [...new Set(rows.map((r) => r[2]))]
const traces: Trace[] = [...new Set(rows.map((r) => r[1]))].map((task) =>
  votes(task, labels, rows.filter((r) => r[1] === task).map((r) => [r[0], r[2]] as [string, string]), truth[task]))
const accuracyOf = (out: { task: string; answer: string | null }[]) => out.filter((o) => o.answer === truth[o.task]).length

describe('GAL AdultContent toy set (5 workers × 5 URLs, worker5 always wrong)', () => {
  it('majority gets 4/5 (url5: 3 of 5 say porn)', () => {
    const out = runPosterior({ method: 'majority', traces, calibration: [], hyper: null, seed: 0 })
    expect(accuracyOf(out)).toBe(4)
    expect(out.find((o) => o.task === 'url5')!.answer).toBe('porn')
  })

  it('per-agent BDA, calibrated on all 5 tasks with the README truth (in-sample), CV-selected: 5/5, worker5 weighs negatively', () => {
    const out = runPosterior({ method: 'per-agent', traces, calibration: traces, hyper: null, seed: 0 })
    expect(accuracyOf(out)).toBe(5)
    const w = out[0].weights
    expect(w.worker5).toBeLessThan(0)
    expect(w.worker3).toBeGreaterThan(0)
    expect(w.worker4).toBeGreaterThan(0)
    // What the CV chose, and the fitted reliabilities (r_i Laplace: worker5 = 1/7, workers 3–4 = 6/7).
    const seats = new SeatIndex()
    const L = traces.map((t) => buildTallies(t, seats))
    const cv = cvSelect('per-agent', L, 0)
    // Observed: { b: 0.58, kappa: 4, s: 4 } — the CV leans on per-seat structure (κ > 0).
    expect(cv.hyper.kappa).toBeGreaterThan(0)
    expect(out[0].weights.worker5).toBeCloseTo(Math.log(0.01 / 0.99), 12) // μ_5 = clip(0.58 + 4·(1/7 − 0.6)) = 0.01
    const report = fitAggregator('per-agent', L, cv.hyper, 0).seatReport(seats)
    expect(report.find((r) => r.seat === 'worker5')!.r).toBeCloseTo(1 / 7, 15)
    expect(report.find((r) => r.seat === 'worker3')!.r).toBeCloseTo(6 / 7, 15)
  })

  it('per-agent with fixed hyperparameters (b 0.7, κ 2, s 8) also resolves 5/5', () => {
    const out = runPosterior({ method: 'per-agent', traces, calibration: traces, hyper: { b: 0.7, kappa: 2, s: 8 }, seed: 0 })
    expect(accuracyOf(out)).toBe(5)
    expect(out[0].weights.worker5).toBeLessThan(0)
  })

  it('honest nested CV (5 outer folds of one URL each) — the number the console would report', () => {
    const res = runEvaluate({ method: 'per-agent', traces, folds: 5, seed: 0 })
    expect('refused' in res).toBe(false)
    if ('refused' in res) return
    expect(res.selected).toHaveLength(5)
    expect(res.accuracy).toBe(1)
  })

  it('unsupervised ds-em-full also reaches 5/5 with worker5 at accuracy ≈ 0 (GAL PROVENANCE)', () => {
    const out = runPosterior({ method: 'ds-em-full', traces, calibration: [], hyper: null, seed: 0 })
    expect(accuracyOf(out)).toBe(5)
  })
})
