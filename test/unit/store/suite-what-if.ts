import { beforeEach, describe, expect, it } from 'vitest'
import type { FitInput } from '../../../src/main/store'
import { ANA, decision, hasUndefined, importTasks, makeTask, rejection, saveDecisions } from './fixtures'
import { useStore, type MakeStore } from './store-suite'

const FIT: FitInput = { method: 'per-agent', hyperparameters: {}, reliabilities: {}, certificate: null, metrics: null, parentFitId: null }
const why = (round: number, qhat: number) => ({ round, k: 128, qhat, bias: 0.01, conc: 0.01 })

/**
 * A fit decided at the threshold 0.85 (gap = 0.85 − max_t L_t): t1 and t2 act, t3 falls just
 * short, t4 has no bound (no usable k), t5 is far below.
 */
const ROWS = [
  decision('t1', 'act', 0.85 - 0.95, { stopRound: 1, bound: [0.8, 0.9, 0.95], why: why(2, 0.97) }),
  decision('t2', 'act', 0.85 - 0.86, { stopRound: 0, bound: [0.86, 0.86, 0.86], why: why(0, 0.95) }),
  decision('t3', 'defer', 0.85 - 0.82, { stopRound: null, bound: [0.5, 0.8, 0.82], why: why(2, 0.9) }),
  decision('t4', 'defer', 0, { stopRound: null, bound: null, gap: null, why: null, reason: 'no-usable-k' }),
  decision('t5', 'defer', 0.85 - 0.3, { stopRound: null, bound: [0.1, 0.2, 0.3], why: why(2, 0.4) })
]

/** gapAtMost for a what-if at `threshold` under the fit's 0.85, with the service's margin. */
const narrowed = (threshold: number) => ({ threshold, gapAtMost: 0.85 - threshold + 1e-9 })

export function defineWhatIfTests(makeStore: MakeStore): void {
  describe('budget what-if over the stored bounds', () => {
    const store = useStore(makeStore)
    beforeEach(async () => {
      await importTasks(store(), ['t1', 't2', 't3', 't4', 't5'].map((id) => makeTask(id)))
    })

    it('reads zeros while no fit is decided, and refuses a threshold that is not a number', async () => {
      expect(await store().budgetWhatIf({ threshold: 0.85, gapAtMost: null })).toEqual({ fitId: null, undecided: 0, acted: 0, expectedWrong: 0, boundedTerms: 0 })
      const bad = await rejection(store().budgetWhatIf({ threshold: Number.NaN, gapAtMost: null }))
      expect(bad.code).toBe('bad_input')
      expect(bad.message).toMatch(/threshold/)
    })

    it('acts on exactly the fit\'s own acted tasks at its own threshold, with q̂ where it is stored', async () => {
      const fit = await store().saveFit(FIT, ANA)
      await saveDecisions(store(), fit.value.id, ROWS, ANA)
      const own = await store().budgetWhatIf(narrowed(0.85))
      expect(hasUndefined(own)).toBe(false)
      // t1 stops at round 1, not its best round 2: 1 − L_1 = 0.1 stands in; t2 stops at its best round: 1 − q̂ = 0.05.
      expect(own).toMatchObject({ fitId: fit.value.id, undecided: 5, acted: 2, boundedTerms: 1 })
      expect(own.expectedWrong).toBeCloseTo(0.15, 12)
      // Reading every row gives the same answer as the gap index's narrowed walk.
      expect(await store().budgetWhatIf({ threshold: 0.85, gapAtMost: null })).toEqual(own)
    })

    it('follows a looser and a tighter threshold, and leaves labeled tasks out', async () => {
      const fit = await store().saveFit(FIT, ANA)
      await saveDecisions(store(), fit.value.id, ROWS, ANA)
      const looser = await store().budgetWhatIf(narrowed(0.8))
      // t1 now stops at round 0 (1 − 0.8), t2 at its best round (1 − 0.95), t3 at round 1 (1 − 0.8).
      expect(looser).toMatchObject({ undecided: 5, acted: 3, boundedTerms: 2 })
      expect(looser.expectedWrong).toBeCloseTo(0.45, 12)
      expect(await store().budgetWhatIf({ threshold: 0.8, gapAtMost: null })).toEqual(looser)
      expect(await store().budgetWhatIf(narrowed(0.99))).toMatchObject({ acted: 0, expectedWrong: 0, undecided: 5 })

      const label = await store().recordLabel({ taskId: 't1', label: 'true', source: 'escalation', reviewer: 'ana', expectedVersion: 0 }, ANA)
      const after = await store().budgetWhatIf(narrowed(0.85))
      expect(after).toMatchObject({ undecided: 4, acted: 1, boundedTerms: 0 })
      expect(after.expectedWrong).toBeCloseTo(0.05, 12)
      // An undone label gives the task back.
      await store().undoLabel({ labelId: label.value.labelId, expectedVersion: 1 }, ANA)
      expect(await store().budgetWhatIf(narrowed(0.85))).toMatchObject({ undecided: 5, acted: 2 })
    })
  })

  describe('labels since a time', () => {
    const store = useStore(makeStore)
    beforeEach(async () => {
      await importTasks(store(), [makeTask('t1'), makeTask('t2')])
    })

    it('counts the live labels recorded after it, and refuses a time that is not ISO UTC', async () => {
      const before = new Date(Date.now() - 60_000).toISOString()
      expect(await store().countLabelsSince(before, null)).toBe(0)
      const a = await store().recordLabel({ taskId: 't1', label: 'true', source: 'random', reviewer: 'ana', expectedVersion: 0 }, ANA)
      await store().recordLabel({ taskId: 't2', label: 'false', source: 'escalation', reviewer: 'ana', expectedVersion: 0 }, ANA)
      const at = (await store().liveLabels('t2'))[0].at
      expect(await store().countLabelsSince(before, null)).toBe(2)
      expect(await store().countLabelsSince(before, at)).toBe(2)
      expect(await store().countLabelsSince(before, before)).toBe(0)
      expect(await store().countLabelsSince(new Date(Date.now() + 60_000).toISOString(), null)).toBe(0)
      await store().undoLabel({ labelId: a.value.labelId, expectedVersion: 1 }, ANA)
      expect(await store().countLabelsSince(before, null)).toBe(1)
      expect((await rejection(store().countLabelsSince('yesterday', null))).code).toBe('bad_input')
      expect((await rejection(store().countLabelsSince(before, 'tomorrow'))).code).toBe('bad_input')
    })
  })
}
