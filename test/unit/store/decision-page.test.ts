/**
 * A page of decisions in columns (src/main/store/decision-page.ts): rows → page → rows gives the
 * rows back, nulls included (test/helpers/decision-rows.ts), and the store's check of a page refuses a bad one.
 */
import { describe, expect, it } from 'vitest'
import { checkDecisionPage, DecisionPageBuilder, pageBuffers } from '../../../src/main/store/decision-page'
import { pageOfRows, rowsOfPage, type DecisionInput } from '../../helpers/decision-rows'
import { bytesOf, candidateOrder } from '../../../src/main/store/decision-numbers'
import type { DecisionPage } from '../../../src/main/store'

const ROWS: DecisionInput[] = [
  { taskId: 't1', decision: 'act', spotCheck: true, answer: 'A', posterior: { A: 0.9, B: 0.1 }, stopRound: 2, gap: -0.25, bound: [0.5, null, 0.95], disagreement: 0.5, k: [8, null, 16], why: { round: 2, k: 16, qhat: 0.97, bias: 0.01, conc: 0.02 }, reason: null },
  { taskId: 't2', decision: 'defer', spotCheck: false, answer: null, posterior: { B: 0.3, A: 0.7 }, stopRound: null, gap: null, bound: null, disagreement: null, k: null, why: null, reason: 'no-calibration' },
  { taskId: 't3', decision: 'defer', spotCheck: false, answer: 'x', posterior: { A: 1 / 3, B: 2 / 3 }, stopRound: null, gap: 1e-300, bound: [], disagreement: 0, k: [], why: null, reason: null }
]

function thrown(fn: () => unknown): { code: string; message: string } {
  try {
    fn()
  } catch (e) {
    return e as { code: string; message: string }
  }
  throw new Error('expected a throw')
}

describe('decision pages', () => {
  it('give back the rows they were made of, every number and null in place', () => {
    const page = pageOfRows(ROWS)
    expect(rowsOfPage(page)).toEqual(ROWS)
    expect(checkDecisionPage(page)).toEqual({ acted: 1, spot: 1 })
    // Two key orders, two lists; the rows point at their own.
    expect(page.lists).toEqual([['A', 'B'], ['B', 'A']])
    expect(Array.from(page.listOf)).toEqual([0, 1, 0])
  })

  it('move every column to another thread in its own buffer', () => {
    const page = pageOfRows(ROWS)
    const buffers = pageBuffers(page)
    expect(buffers.length).toBe(16)
    const { port1, port2 } = new MessageChannel()
    port1.postMessage(page, buffers)
    expect(page.posteriors.length).toBe(0) // detached here: moved, not copied
    port1.close()
    port2.close()
  })

  it('are refused, with the row named, where a row would be', () => {
    const bad = (edit: (p: DecisionPage) => void): string => {
      const p = pageOfRows(ROWS)
      edit(p)
      const e = thrown(() => checkDecisionPage(p))
      expect(e.code).toBe('bad_input')
      return e.message
    }
    expect(bad((p) => (p.posteriors[0] = Number.NaN))).toMatch(/row 0 \(task t1\): the posterior must be finite/)
    expect(bad((p) => (p.bounds[0] = Number.POSITIVE_INFINITY))).toMatch(/row 0 \(task t1\): bound must be finite numbers or nulls/)
    expect(bad((p) => (p.whys[2] = Number.NaN))).toMatch(/row 0 \(task t1\): why must be null or/)
    expect(bad((p) => (p.stopRounds[0] = 1.5))).toMatch(/stopRound/)
    expect(bad((p) => (p.flags[1] = 7))).toMatch(/row 1 \(task t2\): unknown flags/)
    expect(bad((p) => (p.taskIds[2] = 't1'))).toMatch(/task t1 appears twice/)
    expect(bad((p) => (p.listOf[2] = 9))).toMatch(/row 2 \(task t3\): no candidate list 9/)
    expect(bad((p) => (p.boundLength[0] = 99))).toMatch(/bound lies outside the page/)
    expect(bad((p) => p.answers.pop())).toMatch(/answers must have 3 entries/)
    // A row's rounds (what a re-decide copies): each answer one of its candidates, the peak one of its bounds.
    expect(bad((p) => (p.roundAnswers[1] = 2))).toMatch(/row 0 \(task t1\): round 1's answer 2 is not one of its 2 candidates/)
    expect(bad((p) => (p.peaks[0] = 0.9))).toMatch(/row 0 \(task t1\): peak must be null or one of its bounds/)
    expect(bad((p) => (p.peaks[1] = 0.5))).toMatch(/row 1 \(task t2\): peak must be null/)
  })

  it('keep each row\'s answers per round and its peak, and refuse answers that do not match its rounds', () => {
    const b = new DecisionPageBuilder(2)
    const row = { taskId: 't', act: false, spotCheck: false, answer: 'a', reason: null, stopRound: null, gap: 0.1, disagreement: null, candidates: ['a', 'b'], posterior: [0.5, 0.5], bound: [0.2, null, 0.7], k: null, why: null }
    b.add({ ...row, roundAnswers: [1, 0, 0], peak: 0.7 })
    expect(() => b.add({ ...row, taskId: 'u', roundAnswers: [1, 0] })).toThrow(/2 round answers for 3 rounds/)
    const page = b.finish()
    expect([...page.roundAnswers]).toEqual([1, 0, 0])
    expect([...page.peaks]).toEqual([0.7])
    expect(checkDecisionPage(page)).toEqual({ acted: 0, spot: 0 })
  })

  it('refuse a row past the capacity they were built for', () => {
    const b = new DecisionPageBuilder(1)
    const row = { taskId: 't', act: false, spotCheck: false, answer: null, reason: null, stopRound: null, gap: null, disagreement: null, candidates: ['a'], posterior: [1], bound: null, k: null, why: null }
    b.add(row)
    expect(() => b.add({ ...row, taskId: 'u' })).toThrow(RangeError)
  })
})

describe('a posterior in its task\'s candidate order', () => {
  it('is stored as it is when the orders agree, gathered when they differ, refused when the names do', () => {
    expect(candidateOrder(['A', 'B'], ['A', 'B'])).toEqual(new Int32Array(0))
    expect(Array.from(candidateOrder(['A', 'B', 'C'], ['C', 'A', 'B']) as Int32Array)).toEqual([1, 2, 0])
    expect(candidateOrder(['A', 'B'], ['A', 'C'])).toBeNull()
    expect(candidateOrder(['A', 'B'], ['A'])).toBeNull()
  })

  it('is stored as little-endian float64 bytes', () => {
    const b = bytesOf(new Float64Array([9, 0.1, 0.2]), 1, 2)
    expect([b.length, b.readDoubleLE(0), b.readDoubleLE(8)]).toEqual([16, 0.1, 0.2])
  })
})
