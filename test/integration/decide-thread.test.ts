/**
 * A decide (another budget for a fit) on the demo database:
 * - a large one on SQLite writes its pages from a second thread (fit/decisions-thread.ts): the
 *   decisions it stores are exactly those the same decide writes on its own thread, and a page the
 *   store refuses fails the decide with the store's error, the fit left undecided;
 * - it reuses the hyperparameters the fit selected instead of searching again (fit/record.ts
 *   `storedSelection`): under the fit's own budget it stores exactly the fit's decisions, and a
 *   stored selection that is not valid for the method is searched again rather than trusted.
 */
import { describe, expect, it } from 'vitest'
import type { BudgetSetting } from '../../src/shared/api'
import { readEngineSettings } from '../../src/main/service/engine-settings'
import { DecisionsThread } from '../../src/main/service/fit/decisions-thread'
import { storedSelection } from '../../src/main/service/fit/record'
import { fitAndDecide } from '../../src/main/service/fit/run-fit'
import { DecisionPageBuilder, type FitRecord } from '../../src/main/store'
import { useDemoFit } from '../helpers/demo-fit'

const ACTOR = { reviewer: 'test', sessionId: 'test', shell: 'cli' as const }
const demo = useDemoFit('decide-thread')

describe('a decide\'s writer thread', () => {
  it('stores exactly the decisions the decide writes on its own thread', async () => {
    const settings = await readEngineSettings(demo.store)
    const current = await demo.store.currentFit()
    if (current === null) throw new Error('the demo has a fit')
    const budget = { kind: 'absolute' as const, beta: 0.05 }
    const here = await fitAndDecide(demo.store, { settings, redecide: { fit: current, budget }, copyRows: false }, ACTOR)
    const threaded = await fitAndDecide(demo.store, { settings, redecide: { fit: current, budget }, copyRows: false, writer: { dbLocation: demo.dbLocation, nativeBinding: null, threadedFrom: 0 } }, ACTOR)
    expect(threaded.decidedAt).not.toBeNull()
    expect(threaded.decisionCount).toBe(here.decisionCount)
    expect([threaded.deferredCount, threaded.spotCount]).toEqual([here.deferredCount, here.spotCount])
    expect(here.decisionCount).toBeGreaterThan(500)
    expect(demo.rowsOf(threaded.id)).toEqual(demo.rowsOf(here.id))
    expect((await demo.store.queuePage({ filter: { decision: 'defer', group: null, seat: null, candidate: null, labelSource: null, spotCheck: null, search: null }, sort: 'gap', direction: 'asc', offset: 0, limit: 5 })).fitId).toBe(threaded.id)
  })

  it('rejects a page the store refuses with the store\'s error', async () => {
    const decided = await demo.store.currentFit()
    if (decided === null) throw new Error('the demo has a fit')
    const thread = new DecisionsThread({ dbLocation: demo.dbLocation, nativeBinding: null })
    try {
      // A page's buffers move to the thread, so each append gets a page of its own.
      const page = () => {
        const b = new DecisionPageBuilder(1)
        b.add({ taskId: 'nope', act: false, spotCheck: false, answer: null, reason: null, stopRound: null, gap: null, disagreement: null, candidates: ['a'], posterior: [1], bound: null, k: null, why: null })
        return b.finish()
      }
      await expect(thread.append(decided.id, page())).rejects.toMatchObject({ code: 'conflict' })
      const open = await demo.store.saveFit({ method: 'majority', hyperparameters: {}, reliabilities: {}, certificate: null, metrics: null, parentFitId: null }, ACTOR)
      await expect(thread.append(open.value.id, page())).rejects.toMatchObject({ code: 'not_found' })
      expect((await demo.store.getFit(open.value.id)).decidedAt).toBeNull()
    } finally {
      await thread.close()
    }
  })
})

describe('a re-decide reuses the fit\'s selection', () => {
  it('under the fit\'s own budget it stores exactly the fit\'s decisions and hyperparameters', async () => {
    const fit = demo.fit
    expect(fit.parentFitId).toBeNull()
    const selection = storedSelection(fit)
    expect(selection?.outOfFold).toHaveLength(5)
    const settings = await readEngineSettings(demo.store)
    const redecided = await fitAndDecide(demo.store, { settings, redecide: { fit, budget: fit.certificate?.budget as BudgetSetting }, copyRows: false }, ACTOR)
    expect(redecided.hyperparameters).toEqual(fit.hyperparameters)
    expect(redecided.certificate?.outOfFoldHyper).toEqual(fit.certificate?.outOfFoldHyper)
    expect(redecided.certificate?.resolved).toEqual(fit.certificate?.resolved)
    expect(redecided.decisionCount).toBeGreaterThan(500)
    expect(demo.rowsOf(redecided.id)).toEqual(demo.rowsOf(fit.id))
  })

  it('a stored selection that is not valid for the method is searched again, with the same result', async () => {
    const fit = demo.fit
    const broken: FitRecord = { ...fit, certificate: { ...fit.certificate, outOfFoldHyper: [{ b: 7, kappa: 0 }] } }
    expect(storedSelection(broken)).toBeNull()
    expect(storedSelection({ ...fit, certificate: { ...fit.certificate, outOfFoldHyper: null } })).toBeNull()
    expect(storedSelection({ ...fit, hyperparameters: { b: 'high' } as never })).toBeNull()
    const settings = await readEngineSettings(demo.store)
    const budget = { kind: 'absolute' as const, beta: 0.1 }
    const searched = await fitAndDecide(demo.store, { settings, redecide: { fit: broken, budget }, copyRows: false }, ACTOR)
    const reused = await fitAndDecide(demo.store, { settings, redecide: { fit, budget }, copyRows: false }, ACTOR)
    expect(searched.hyperparameters).toEqual(reused.hyperparameters)
    expect(demo.rowsOf(searched.id)).toEqual(demo.rowsOf(reused.id))
  })
})
