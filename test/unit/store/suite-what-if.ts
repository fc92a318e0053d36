import { beforeEach, describe, expect, it } from 'vitest'
import type { BudgetWhatIfInput, BudgetWhatIfResult, FitInput } from '../../../src/main/store'
import type { DecisionInput } from '../../helpers/decision-rows'
import { ANA, decision, hasUndefined, importTasks, makeTask, rejection, saveDecisions } from './fixtures'
import { useStore, type MakeStore } from './store-suite'
import { rng } from '../engine/helpers'

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

  describe('what-if figures', () => {
    const store = useStore(makeStore)
    const ids = Array.from({ length: 90 }, (_, i) => `w${String(i).padStart(2, '0')}`)
    beforeEach(async () => {
      await importTasks(store(), ids.map((id) => makeTask(id)))
    })

    it('answer exactly what the scan of the rows answers, at any threshold, with labels given and undone before and after', async () => {
      const random = rng(7)
      const live = new Map<string, { labelId: string; version: number }>()
      const versions = new Map<string, number>(ids.map((id) => [id, 0]))
      const label = async (taskId: string) => {
        const r = await store().recordLabel({ taskId, label: 'true', source: 'escalation', reviewer: 'ana', expectedVersion: versions.get(taskId)! }, ANA)
        versions.set(taskId, versions.get(taskId)! + 1)
        live.set(taskId, { labelId: r.value.labelId, version: versions.get(taskId)! })
      }
      const undo = async (taskId: string) => {
        const l = live.get(taskId)!
        await store().undoLabel({ labelId: l.labelId, expectedVersion: versions.get(taskId)! }, ANA)
        versions.set(taskId, versions.get(taskId)! + 1)
        live.delete(taskId)
      }
      const someTask = () => ids[Math.floor(random() * ids.length)]
      for (let round = 0; round < 2; round++) {
        // The first fit's gaps are the engine's (the figures answer every query); the second's are not always.
        const rows = ids.map((id) => randomRow(id, random, round === 1))
        const fit = await store().saveFit(FIT, ANA)
        await saveDecisions(store(), fit.value.id, rows, ANA)
        for (let i = 0; i < 6; i++) {
          const t = someTask()
          if (!live.has(t)) await label(t)
        }
        await undo([...live.keys()][0])
        const queries = queriesFor(rows, random)
        const scanned: BudgetWhatIfResult[] = []
        for (const q of queries) scanned.push(await store().budgetWhatIf(q))
        const figures = await store().buildWhatIfFigures(fit.value.id)
        expect(figures).not.toBeNull()
        expect((await store().saveWhatIfFigures(fit.value.id, figures!)).value).toBe(figures!.entries)
        for (const [i, q] of queries.entries()) {
          const got = await store().budgetWhatIf(q)
          expectSame(got, scanned[i], q)
          expectSame(got, { ...reference(rows, new Set(live.keys()), q), fitId: fit.value.id, undecided: got.undecided }, q)
        }
        // Labels given and undone after the figures were saved: they are subtracted as they come.
        for (let i = 0; i < 4; i++) {
          const t = someTask()
          if (!live.has(t)) await label(t)
        }
        await undo([...live.keys()][1])
        for (const q of queries) expectSame(await store().budgetWhatIf(q), { ...reference(rows, new Set(live.keys()), q), fitId: fit.value.id, undecided: 90 - live.size }, q)
      }
    })

    it('are refused when they are not the builder\'s, or the fit has no decisions, and nothing is written', async () => {
      const undecided = await store().saveFit(FIT, ANA)
      expect(await store().buildWhatIfFigures(undecided.value.id)).toBeNull()
      const fit = await store().saveFit(FIT, ANA)
      const random = rng(3)
      const rows = ids.map((id) => randomRow(id, random))
      await saveDecisions(store(), fit.value.id, rows, ANA)
      const good = (await store().buildWhatIfFigures(fit.value.id))!
      expect(good.entries).toBeGreaterThan(0)
      expect((await rejection(store().saveWhatIfFigures(undecided.value.id, good))).code).toBe('conflict')
      const swapped = Uint8Array.from(good.chunks[0].bytes)
      swapped.set(good.chunks[0].bytes.subarray(0, 40), 40)
      swapped.set(good.chunks[0].bytes.subarray(40, 80), 0)
      const bad = [
        { ...good, entries: good.entries + 1 },
        { ...good, chunks: [{ ...good.chunks[0], top: good.chunks[0].top + 1 }, ...good.chunks.slice(1)] },
        { ...good, chunks: [{ top: new DataView(swapped.buffer).getFloat64(0, true), bytes: swapped }, ...good.chunks.slice(1)] },
        { ...good, chunks: [{ ...good.chunks[0], bytes: good.chunks[0].bytes.subarray(0, 39) }, ...good.chunks.slice(1)] }
      ]
      const q = { threshold: 0.85, gapAtMost: null }
      const before = await store().budgetWhatIf(q)
      for (const figures of bad) {
        const e = await rejection(store().saveWhatIfFigures(fit.value.id, figures))
        expect(e.code).toBe('bad_input')
        expect(e.message).toMatch(/what-if figures/)
      }
      expect(await store().budgetWhatIf(q)).toEqual(before)
      await store().saveWhatIfFigures(fit.value.id, good)
      expectSame(await store().budgetWhatIf(q), before, q)
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

/** Bounds drawn often from a few shared values (ties within and across rows, and at the thresholds asked). */
const SHARED = [0.3, 0.5, 0.8, 0.82, 0.85, 0.86, 0.9, 0.95, 0.97, 1]

/**
 * A decision row under the fit threshold 0.85: bounds of 1 to 4 rounds with nulls, or none; a
 * decomposition whose best round is sometimes a crossing round, sometimes not, or none; the gap
 * (0.85 − max_t L_t) as the engine gives it or, `odd`, sometimes null or not matching the bounds.
 */
function randomRow(taskId: string, random: () => number, odd = false): DecisionInput {
  const pick = () => (random() < 0.5 ? SHARED[Math.floor(random() * SHARED.length)] : 0.2 + 0.8 * random())
  const bound = random() < 0.1 ? null : Array.from({ length: 1 + Math.floor(random() * 4) }, () => (random() < 0.1 ? null : pick()))
  const present = (bound ?? []).filter((x): x is number => x !== null)
  const peak = present.length === 0 ? null : Math.max(...present)
  const w = odd ? random() : 1
  const gap = w < 0.1 || peak === null ? null : w < 0.2 ? random() - 0.5 : 0.85 - peak
  const act = gap !== null && gap <= 0
  const qhat = peak === null ? random() : peak + (1 - peak) * random()
  const why = bound === null || random() < 0.15 ? null : { round: Math.floor(random() * bound.length), k: 128, qhat, bias: 0.01, conc: 0.01 }
  return decision(taskId, act ? 'act' : 'defer', gap ?? 0, { gap, bound, why, stopRound: act ? 0 : null })
}

/** Thresholds at every stored bound, just beside them, and beyond all of them; each read whole, narrowed as the service narrows, and narrowed arbitrarily. */
function queriesFor(rows: DecisionInput[], random: () => number): BudgetWhatIfInput[] {
  const stored = new Set<number>()
  for (const r of rows) for (const x of r.bound ?? []) if (x !== null) stored.add(x)
  const thresholds = [...stored, ...SHARED.map((x) => x + 1e-12), ...SHARED.map((x) => x - 1e-12), -1, 0, 1.5, random()]
  return thresholds.flatMap((threshold) => [
    { threshold, gapAtMost: null },
    { threshold, gapAtMost: 0.85 - threshold + 1e-9 },
    { threshold, gapAtMost: random() - 0.5 }
  ])
}

/** The what-if by its definition, row by row (docs/engine.md §8 Budget). */
function reference(rows: DecisionInput[], labeled: Set<string>, q: BudgetWhatIfInput): Pick<BudgetWhatIfResult, 'acted' | 'expectedWrong' | 'boundedTerms'> {
  let acted = 0
  let boundedTerms = 0
  let expectedWrong = 0
  for (const r of rows) {
    if (r.bound === null || labeled.has(r.taskId)) continue
    if (q.gapAtMost !== null && (r.gap === null || !(r.gap <= q.gapAtMost))) continue
    const t = r.bound.findIndex((x) => x !== null && x >= q.threshold)
    if (t < 0) continue
    acted++
    if (r.why != null && r.why.round === t) expectedWrong += 1 - r.why.qhat
    else {
      expectedWrong += 1 - (r.bound[t] as number)
      boundedTerms++
    }
  }
  return { acted, expectedWrong, boundedTerms }
}

/** The same counts, and the same expected wrong actions to 1e-9 of them (rounding of a compensated sum). */
function expectSame(got: BudgetWhatIfResult, want: BudgetWhatIfResult, q: BudgetWhatIfInput): void {
  const where = JSON.stringify(q)
  expect({ fitId: got.fitId, undecided: got.undecided, acted: got.acted, boundedTerms: got.boundedTerms }, where).toEqual({
    fitId: want.fitId, undecided: want.undecided, acted: want.acted, boundedTerms: want.boundedTerms
  })
  expect(Math.abs(got.expectedWrong - want.expectedWrong), `${where}: ${got.expectedWrong} against ${want.expectedWrong}`).toBeLessThanOrEqual(1e-9 * Math.abs(want.expectedWrong) + 1e-15)
}
