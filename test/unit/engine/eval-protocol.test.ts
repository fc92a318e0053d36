import { describe, expect, it } from 'vitest'
import { hashMod } from '../../../src/main/engine/hash'
import { runCell, scoreSplit, splitOf } from '../../../scripts/eval/aggregation/splits'
import { meanSd, modalChoice } from '../../../scripts/eval/aggregation/table'
import { council, votes } from './helpers'

/** The real-data protocol of `npm run eval`: its splits and cells must be what the table says. */
describe('eval splits: a gold task calibrates split i iff H(`${i}:eval:${task}`) mod 10 = 0', () => {
  const traces = council({ n: 400, seed: 5, reliabilities: [0.7, 0.6, 0.6] })
  traces.slice(0, 50).forEach((t) => (t.gold = null)) // unlabeled tasks never calibrate

  it('follows the hash rule, keeps file order, and partitions the file', () => {
    for (const i of [0, 3, 9]) {
      const { calibration, traces: rest } = splitOf(traces, i)
      const expected = traces.filter((t) => t.gold != null && hashMod(`${i}:eval:${t.task}`, 10) === 0)
      expect(calibration).toEqual(expected)
      expect(rest).toEqual(traces.filter((t) => !expected.includes(t)))
      expect(calibration.length).toBeGreaterThan(15) // ≈ 10 % of 350
      expect(calibration.length).toBeLessThan(60)
    }
    expect(splitOf(traces, 0).calibration).not.toEqual(splitOf(traces, 1).calibration)
  })

  it('scores only the gold tasks of the scored side, with the tie-broken answer', () => {
    // Majority on hand-made tasks: a 2–1 win (p = 2/3), a 1–1 tie (p = 1/2) and an unlabeled task.
    const cal = [votes('c0', ['x', 'y'], [['A', 'x']], 'x')]
    const scored = [
      votes('s1', ['x', 'y'], [['A', 'x'], ['B', 'x'], ['C', 'y']], 'x'),
      votes('s2', ['x', 'y'], [['A', 'x'], ['B', 'y']], 'y'),
      votes('s3', ['x', 'y'], [['A', 'y']], null)
    ]
    const s = scoreSplit('majority', { calibration: cal, traces: scored })
    expect(s.n).toBe(2)
    const tieRight = hashMod('0:s2', 2) === 1 ? 1 : 0 // tied[H(seed:task) mod 2] is y (index 1) or x
    expect(s.accuracy).toBe((1 + tieRight) / 2)
    expect(s.brier).toBeCloseTo(((1 / 3) ** 2 * 2 + 0.5 ** 2 * 2) / 2, 12)
    expect(s.hyper).toEqual({})
  })

  it('best-seat: a scored task its seat did not answer counts as wrong (uniform posterior), never as a lucky tie-break', () => {
    // B is right on the calibration side; on s2 only A answers — B has no answer there.
    const cal = [votes('c0', ['x', 'y'], [['A', 'y'], ['B', 'x']], 'x'), votes('c1', ['x', 'y'], [['A', 'y'], ['B', 'x']], 'x')]
    // On s2 and s3 the seeded tie rule on the uniform posterior would pick the gold (y, then x).
    expect([hashMod('0:s2', 2), hashMod('0:s3', 2)]).toEqual([1, 0])
    const scored = [votes('s1', ['x', 'y'], [['A', 'y'], ['B', 'x']], 'x'), votes('s2', ['x', 'y'], [['A', 'x']], 'y'), votes('s3', ['x', 'y'], [['A', 'y']], 'x')]
    const s = scoreSplit('best-seat', { calibration: cal, traces: scored })
    expect(s.n).toBe(3)
    expect(s.accuracy).toBe(1 / 3)
    expect(s.brier).toBeCloseTo((0 + 0.5 + 0.5) / 3, 12)
    // majority-final runs in the same protocol (no hyperparameters, no label read).
    expect(scoreSplit('majority-final', { calibration: cal, traces: scored }).hyper).toEqual({})
  })

  it('a method that cannot run is a refused cell, not an error', () => {
    const mixed = [votes('a', ['x', 'y'], [['A', 'x']], 'x'), votes('b', ['x', 'y', 'z'], [['A', 'z']], 'z')]
    const cell = runCell('confusion', [{ calibration: mixed.slice(0, 1), traces: mixed.slice(1) }], 1000)
    expect(cell.refused).toMatch(/one candidate set/)
    expect(cell.scores).toEqual([])
  })
})

describe('eval table statistics', () => {
  it('mean ± sample sd (n − 1)', () => {
    expect(meanSd([1, 2, 3, 4])).toEqual({ mean: 2.5, sd: Math.sqrt(5 / 3) })
    expect(meanSd([0.9])).toEqual({ mean: 0.9, sd: 0 })
  })

  it('the modal CV choice with its count; methods without hyperparameters show a dash', () => {
    expect(modalChoice([{ b: 0.7, kappa: 1, s: 4 }, { b: 0.6, kappa: 0, s: 4 }, { b: 0.7, kappa: 1, s: 4 }])).toBe('b=0.7 κ=1 s=4 (2/3)')
    expect(modalChoice([{}, {}])).toBe('—')
  })
})
