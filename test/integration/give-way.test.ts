/**
 * A fit gives way to the reviewers between its steps (service/jobs/give-way.ts): it
 * pauses before every decided page and every queue index build, a fit job run with the service's
 * words waits while calls keep coming, and what it stores is what it stores without waiting.
 */
import { describe, expect, it } from 'vitest'
import { readEngineSettings } from '../../src/main/service/engine-settings'
import { fitAndDecide } from '../../src/main/service/fit/run-fit'
import { ReviewerActivity } from '../../src/main/service/jobs/give-way'
import { runJob } from '../../src/main/service/jobs/runner'
import { useDemoFit } from '../helpers/demo-fit'

const ACTOR = { reviewer: 'test', sessionId: 'test', shell: 'cli' as const }
const demo = useDemoFit('give-way')

describe('a fit that gives way', () => {
  it('pauses before each page and each index build, and stores what it stores without pausing', async () => {
    const settings = await readEngineSettings(demo.store)
    const budget = { kind: 'absolute' as const, beta: 0.07 }
    const plain = await fitAndDecide(demo.store, { settings, redecide: { fit: demo.fit, budget }, copyRows: false }, ACTOR)
    const steps: string[] = []
    const paused = await fitAndDecide(
      demo.store,
      { settings, redecide: { fit: demo.fit, budget }, copyRows: false, giveWay: async () => void steps.push('pause') },
      ACTOR,
      (p) => steps.push(p.phase)
    )
    expect(demo.rowsOf(paused.id)).toEqual(demo.rowsOf(plain.id))
    expect([paused.decisionCount, paused.deferredCount]).toEqual([plain.decisionCount, plain.deferredCount])
    // Every "deciding" step is followed by a pause; after "saving", one per index and one before the finish.
    const deciding = steps.flatMap((s, i) => (s === 'deciding' ? [steps[i + 1]] : []))
    expect(deciding.length).toBeGreaterThan(0)
    expect(deciding.every((s) => s === 'pause')).toBe(true)
    const afterSaving = steps.slice(steps.indexOf('saving') + 1)
    expect(afterSaving.length).toBeGreaterThanOrEqual(2)
    expect(afterSaving.every((s) => s === 'pause')).toBe(true)
  })

  it('a copied re-decide pauses before each chunk', async () => {
    const settings = await readEngineSettings(demo.store)
    const steps: string[] = []
    await fitAndDecide(demo.store, { settings, redecide: { fit: demo.fit, budget: { kind: 'absolute', beta: 0.09 } }, giveWay: async () => void steps.push('pause') }, ACTOR, (p) =>
      steps.push(p.message ?? p.phase)
    )
    expect(steps.some((s) => s.includes("parent fit's"))).toBe(true)
    const deciding = steps.flatMap((s, i) => (s === 'deciding' ? [steps[i + 1]] : []))
    expect(deciding.length).toBeGreaterThan(0)
    expect(deciding.every((s) => s === 'pause')).toBe(true)
  })

  it('as a job with the service\'s words, waits while calls keep coming; without calls, never', async () => {
    const settings = await readEngineSettings(demo.store)
    const job = { kind: 'fit' as const, dbLocation: demo.dbLocation, nativeBinding: null, settings, actor: ACTOR }
    const quiet = new ReviewerActivity()
    await runJob({ ...job, redecide: { fitId: demo.fit.id, budget: { kind: 'absolute', beta: 0.11 }, copyRows: false }, activity: quiet.buffer }, () => {})
    expect(quiet.waitedMs).toBe(0)

    const busy = new ReviewerActivity()
    busy.mark()
    const calls = setInterval(() => busy.mark(), 5)
    try {
      const fit = await runJob({ ...job, redecide: { fitId: demo.fit.id, budget: { kind: 'absolute', beta: 0.11 }, copyRows: false }, activity: busy.buffer }, () => {})
      expect(fit.decidedAt).not.toBeNull()
    } finally {
      clearInterval(calls)
    }
    expect(busy.waitedMs).toBeGreaterThan(0)
  })
})
