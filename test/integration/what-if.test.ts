/**
 * The what-if of a budget and a refit's news through the service's calls: the what-if of an absolute β is read from the
 * current fit's stored bounds, and it is exactly what re-deciding under that β does (same labels,
 * same certificate); a change the bounds depend on needs a refit; a refit's change is told against
 * the fit before it, with the labels given in between.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { BudgetWhatIf, Counts, EngineSettings, FitSummary, RefitChange } from '../../src/shared/api'
import { dispatch } from '../../src/main/host/dispatch'
import { createService, type Service } from '../../src/main/service'
import { cleanCouncil, toJsonl } from '../../src/main/sim'
import { openStore } from '../../src/main/store'

describe('the budget what-if and the refit change', () => {
  let dir: string
  let service: Service
  let settings: EngineSettings

  async function call<T = unknown>(method: string, args: unknown = {}): Promise<T> {
    const env = await dispatch(service.handlers, method, args, { ...service.context(), shell: 'cli' })
    if (!env.ok) throw Object.assign(new Error(env.error.message), env.error)
    return env.value as T
  }
  const whatIf = (patch: Partial<EngineSettings>) => call<BudgetWhatIf>('fits.whatIf', { settings: { ...settings, ...patch } })

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'arbiter-what-if-'))
    const traces = [...cleanCouncil({ tasks: 1200, seed: 11 })]
    writeFileSync(join(dir, 'council.jsonl'), traces.map((t) => `${toJsonl(t)}\n`).join(''))
    const labels = traces.filter((_, i) => i % 2 === 0).map((t) => JSON.stringify({ task: t.task, label: t.gold, source: 'random', reviewer: 'ana', at: '2026-11-30T12:00:00Z' }))
    writeFileSync(join(dir, 'calibration.labels.jsonl'), `${labels.join('\n')}\n`)
    const dbLocation = join(dir, 'arbiter.db')
    service = await createService({ store: await openStore(dbLocation), dbLocation, nativeBinding: null, shell: 'electron' })
    settings = await call<EngineSettings>('engine.updateSettings', {
      patch: { autoRefit: false, method: 'per-agent', state: 'posterior', bound: 'hoeffding', budget: { kind: 'absolute', beta: 0.2 } }
    })
    await call('imports.run', { source: { kind: 'path', path: join(dir, 'council.jsonl') } })
    await call('imports.run', { source: { kind: 'path', path: join(dir, 'calibration.labels.jsonl') } })
  })

  afterAll(async () => {
    await service?.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('says there is nothing to compare with before the first fit', async () => {
    expect(await whatIf({})).toMatchObject({ fitId: null, proposed: null, unavailable: expect.stringMatching(/No fit yet/) })
  })

  it('gives, for another absolute β, exactly what re-deciding under it does', async () => {
    const fit = await call<FitSummary>('fits.run')
    const counts = await call<Counts>('app.counts')
    const own = await whatIf({})
    expect(own).toMatchObject({ fitId: fit.id, needsRefit: [], unavailable: null, current: { undecided: 600, acted: counts.acted, queue: counts.deferred } })
    expect(own.proposed).toMatchObject({ beta: 0.2, acted: counts.acted, queue: counts.deferred })
    expect(own.proposed!.threshold).toBeCloseTo(0.85, 12)

    for (const beta of [0.12, 0.3, 0.45]) {
      const w = await whatIf({ budget: { kind: 'absolute', beta } })
      expect(w.needsRefit).toEqual([])
      await call('fits.redecide', { budget: { kind: 'absolute', beta } })
      const decided = await call<Counts>('app.counts')
      expect(w.proposed, `β = ${beta}`).toMatchObject({ acted: decided.acted, queue: decided.deferred, undecided: 600 })
      expect(w.proposed!.expectedWrong).toBeGreaterThanOrEqual(0)
      expect(w.proposed!.expectedWrong).toBeLessThanOrEqual(w.proposed!.acted)
    }
    // A looser budget acts on more tasks (the fit is now the decide at β = 0.45: same bounds).
    const loose = await whatIf({ budget: { kind: 'absolute', beta: 0.45 } })
    const tight = await whatIf({ budget: { kind: 'absolute', beta: 0.3 } })
    expect(tight.proposed!.acted).toBeGreaterThan(0)
    expect(loose.proposed!.acted).toBeGreaterThan(tight.proposed!.acted)
    expect(loose.proposed!.expectedWrong).toBeGreaterThanOrEqual(tight.proposed!.expectedWrong)
    // α' ≤ 0 defers everything (docs/engine.md §8.8).
    expect((await whatIf({ budget: { kind: 'absolute', beta: 0.05 } })).proposed).toMatchObject({ acted: 0, queue: 600, expectedWrong: 0 })
  })

  it('says which changes need a refit instead of guessing', async () => {
    expect((await whatIf({ budget: { kind: 'relative', lambda: 1 } })).needsRefit).toEqual(['λ'])
    // The fit's own λ budget is no change: the fit as it stands answers.
    await call('fits.redecide', { budget: { kind: 'relative', lambda: 1 } })
    expect(await whatIf({ budget: { kind: 'relative', lambda: 1 } })).toMatchObject({ needsRefit: [], proposed: null, current: { undecided: 600 } })
    expect((await whatIf({ budget: { kind: 'relative', lambda: 2 } })).needsRefit).toEqual(['λ'])
    expect((await whatIf({ budget: { kind: 'auto' } })).needsRefit).toEqual(['λ = auto'])
    const many = await whatIf({ delta: 0.05, bound: 'binomial', method: 'shared' })
    expect(many.needsRefit).toEqual(['method', 'δ', 'bound'])
    expect(many.proposed).toBeNull()
    expect(many.current).not.toBeNull()
    // ε_act only moves the threshold: still answered from the bounds.
    const eps = await whatIf({ epsAct: 0.05 })
    expect(eps.needsRefit).toEqual([])
    expect(eps.proposed!.alpha).toBeCloseTo(0.2 - 0.03 - 0.05, 12)
  })

  it('tells a refit\'s change against the fit before it, with the labels given in between', async () => {
    const before = await call<FitSummary>('fits.run')
    const page = await call<{ rows: { taskId: string; answer: string }[] }>('queue.page', { limit: 3 })
    for (const r of page.rows) {
      const detail = await call<{ task: { version: number } }>('task.detail', { taskId: r.taskId })
      await call('labels.resolve', { taskId: r.taskId, label: r.answer, expectedVersion: detail.task.version })
    }
    const after = await call<FitSummary>('fits.run')
    const change = await call<RefitChange>('fits.change', { fitId: after.id })
    expect(change.labelsSince).toBe(3)
    expect(change.before).toMatchObject({ fitId: before.id, decided: 600 })
    expect(change.after).toMatchObject({ fitId: after.id, decided: 597 })
    expect(change.after.acted + change.after.deferred).toBe(597)
    expect((await call<RefitChange>('fits.change', { fitId: before.id })).before).not.toBeNull()
    await expect(call('fits.change', { fitId: 'no-such-fit' })).rejects.toMatchObject({ code: 'not_found' })
  })

  it('gives each fit its what-if figures as it lands (a decide, a re-decide\'s copy, a rollback), and they answer as the fit\'s rows do', async () => {
    const db = () => new Database(join(dir, 'arbiter.db'))
    const figured = (fitId: string): number | null => {
      const d = db()
      try {
        return (d.prepare('SELECT what_if_entries AS n FROM fits WHERE id = ?').get(fitId) as { n: number | null }).n
      } finally {
        d.close()
      }
    }
    const betas = [0.1, 0.15, 0.2, 0.3, 0.45]
    /** The current fit's what-if from its figures, then without them (as a fit decided before them): the same. */
    const expectAsItsRows = async (fitId: string) => {
      expect(figured(fitId), fitId).toBeGreaterThan(0)
      const fromFigures = []
      for (const beta of betas) fromFigures.push(await whatIf({ budget: { kind: 'absolute', beta } }))
      const d = db()
      try {
        d.prepare('UPDATE fits SET what_if_entries = NULL WHERE id = ?').run(fitId)
      } finally {
        d.close()
      }
      for (const [i, beta] of betas.entries()) {
        const scanned = await whatIf({ budget: { kind: 'absolute', beta } })
        expect(fromFigures[i].proposed, `β = ${beta}`).toMatchObject({ ...scanned.proposed, expectedWrong: expect.any(Number) })
        expect(fromFigures[i].proposed!.expectedWrong).toBeCloseTo(scanned.proposed!.expectedWrong, 9)
        expect(fromFigures[i].current).toMatchObject({ ...scanned.current, expectedWrong: expect.any(Number) })
      }
      expect(fromFigures.some((w) => w.proposed!.acted > 0)).toBe(true)
    }
    const decided = await call<FitSummary>('fits.run')
    const fits = await call<FitSummary[]>('fits.list', { limit: 10 })
    await expectAsItsRows(decided.id)
    // Nothing changed since: a re-decide copies the rows, and its figures are the fit's with its own gaps.
    const copy = await call<FitSummary>('fits.redecide', { budget: { kind: 'absolute', beta: 0.3 } })
    expect(copy.id).not.toBe(decided.id)
    await expectAsItsRows(copy.id)
    const back = await call<FitSummary>('fits.rollback', { fitId: fits[1].id })
    await expectAsItsRows(back.id)
  })
})
