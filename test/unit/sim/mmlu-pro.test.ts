import { beforeAll, expect, it } from 'vitest'
import type { Trace } from '@shared/trace'
import { datasetDir } from '../../../scripts/data-dir'
import { MMLU_PRO_PROVENANCE, convertMmluPro, type MmluProStats } from '../../../src/main/sim/mmlu-pro'
import { dataset, describeWith } from '../../helpers/prerequisites'
import { traceErrors } from './check-trace'

// The read-only dataset of the data folder (18 MB: not shipped with the repository).
const DATA = datasetDir('mmlu-pro-llm-outputs')

describeWith(dataset('mmlu-pro-llm-outputs'), 'convertMmluPro (PROVENANCE.md conversion rules)', () => {
  let traces: Trace[]
  let stats: MmluProStats
  beforeAll(() => {
    ;({ traces, stats } = convertMmluPro(DATA)) // 18 MB of zips, about 2 s
  })

  it('reproduces PROVENANCE.md’s counts', () => {
    expect(stats.files).toBe(MMLU_PRO_PROVENANCE.seats)
    expect(stats.commonQuestions).toBe(MMLU_PRO_PROVENANCE.commonQuestions)
    expect(stats.rowsPerFile.sort()).toEqual([12020, 12032, 12032, 12032, 12032])
    // PROVENANCE's 55,842 counts every row of the five files: 55,797 on the common questions
    // plus 45 on the 12 questions missing from the Gemini file.
    expect(stats.nonNullAllRows).toBe(MMLU_PRO_PROVENANCE.nonNullPredictions)
    expect(stats.nonNullCommon).toBe(55797)
    expect(stats.outOfCandidate).toBe(MMLU_PRO_PROVENANCE.outOfCandidatePredictions)
    expect(stats.goldDrift).toBe(33)
    // Its per-seat null counts (over all rows): Llama-2-7B 2,061, Mistral-7B 2,237, Gemini 8, Llama-3.1 0.
    expect(Object.fromEntries(stats.seats.map((s) => [s.seat, s.nullsAllRows]))).toEqual({
      'gemini-1.5-pro': 8,
      'llama-3.1-70b': 0,
      'llama-3.1-8b': 0,
      'mistral-7b': 2237,
      'llama-2-7b': 2061
    })
    // "Best single seat (Gemini) 0.7013" against the majority gold.
    expect(stats.seats[0].accuracy).toBeCloseTo(0.7013, 4)
  })

  it('makes one valid task per kept common question, 5 seats, one round-0 move each', () => {
    // With candidates from the first majority-gold file in seat order, no question is dropped.
    expect(stats.dropped).toEqual([])
    expect(stats.tasks).toBe(12020 - stats.dropped.length)
    expect(traces.length).toBe(stats.tasks)
    expect(traceErrors(traces)).toEqual([])
    expect(stats.moves).toBe(5 * stats.tasks)
    expect(stats.abstentions).toBe(stats.seats.reduce((n, s) => n + s.nulls, 0) + stats.outOfCandidate)
    expect(stats.abstentions).toBe(4303 + 46)
    expect(stats.proposes).toBe(55797 - 46)
    const forces = traces.flatMap((t) => t.moves.map((m) => m.force))
    expect(forces.filter((f) => f === 'abstain').length).toBe(stats.abstentions)
    expect(forces.filter((f) => f === 'propose').length).toBe(stats.proposes)
    expect(traces.every((t) => t.moves.length === 5 && t.moves.every((m) => m.round === 0))).toBe(true)
    expect(traces.every((t) => t.seats?.length === 5)).toBe(true)
    expect(new Set(traces.map((t) => t.group)).size).toBe(14)
    // A question's K is its number of options (3–10); 10 for 9,971 questions.
    expect(traces.filter((t) => t.candidates.length === 10).length).toBe(9971)
    expect(Math.min(...traces.map((t) => t.candidates.length))).toBe(3)
  })

  it('follows the rules on the tricky questions (gold drift, differing options)', () => {
    const byId = new Map(traces.map((t) => [t.task, t]))
    // 8410: Gemini says A, the four others E → majority gold E.
    expect(byId.get('mmlu-pro-8410')?.gold).toBe('E')
    // 2129: Llama-2 / Mistral list one option, the majority-gold file listed first (Gemini) four;
    // Llama-3.1-70B's and Gemini's "B" are candidates, Mistral's null is an abstention.
    const q = byId.get('mmlu-pro-2129')
    expect(q?.candidates).toEqual(['A', 'B', 'C', 'D'])
    expect(q?.moves.map((m) => m.answer ?? m.force)).toEqual(['B', 'B', 'A', 'abstain', 'A'])
    expect(q?.seats?.[0]).toEqual({ id: 'gemini-1.5-pro', model: 'gemini-1.5-pro-002' })
  })
})
