/**
 * The demo council: `createDemoDatabase` builds a fitted, decided database with labels
 * already given; `serve` and the desktop app create it on a first launch; the console can tell it
 * is a demo and start empty (the demo is moved aside, never deleted).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startConsoleServer } from '../../src/main/console-server'
import { dispatch } from '../../src/main/host/dispatch'
import { defaultDbLocation } from '../../src/main/paths'
import { createService, type Service } from '../../src/main/service'
import { createDemoDatabase, DEMO_ESCALATIONS, DEMO_RANDOM_LABELS, DEMO_TASKS, isFirstLaunch } from '../../src/main/service/demo'
import { openStore } from '../../src/main/store'
import { DEFAULT_ENGINE_SETTINGS } from '../../src/shared/api'

let dir: string
let dbLocation: string
let service: Service

async function call<T = unknown>(method: string, args: unknown = {}): Promise<T> {
  const env = await dispatch(service.handlers, method, args, service.context())
  if (!env.ok) throw Object.assign(new Error(env.error.message), env.error)
  return env.value as T
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'arbiter-demo-'))
  dbLocation = join(dir, 'arbiter.db')
  const report = await createDemoDatabase(dbLocation)
  expect(report).toMatchObject({ tasks: DEMO_TASKS, randomLabels: DEMO_RANDOM_LABELS, escalations: DEMO_ESCALATIONS })
  // Under the default budget and bound (the demo declares none of its own), a queue to review.
  expect(report.acted).toBeGreaterThanOrEqual(1)
  expect(report.deferred).toBeGreaterThanOrEqual(40)
  service = await createService({ store: await openStore(dbLocation), dbLocation, nativeBinding: null, shell: 'web' })
}, 60_000) // builds the 1,000-task demo (two fits): over the 10 s default on a loaded machine

afterAll(async () => {
  await service.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('the demo database', () => {
  it('is populated for every screen: queue, acted and spot-checked tasks, labels of both sources, fits', async () => {
    expect(await call('demo.status')).toMatchObject({ demo: true, seed: 0 })
    const { budget, bound, method } = DEFAULT_ENGINE_SETTINGS
    expect(await call('engine.getSettings')).toMatchObject({ budget, bound, method })
    const current = (await call<{ current: boolean; bound: string; metrics: { act: number; acted: number; decided: number } }[]>('fits.list')).find((f) => f.current)
    expect(current?.bound).toBe(bound)
    expect(current?.metrics.act).toBeCloseTo((current?.metrics.acted ?? NaN) / (current?.metrics.decided ?? NaN), 12)
    const counts = await call<{ tasks: number; labeledTasks: number; deferred: number; acted: number; spotCheck: number; fits: number }>('app.counts')
    expect(counts).toMatchObject({ tasks: DEMO_TASKS, labeledTasks: DEMO_RANDOM_LABELS + DEMO_ESCALATIONS, fits: 2 })
    expect(counts.deferred).toBeGreaterThan(0)
    expect(counts.acted).toBeGreaterThan(0)
    expect(counts.spotCheck).toBeGreaterThan(0)
    const facets = await call<{ groups: { group: string }[]; seats: string[] }>('queue.facets')
    expect(facets.groups.map((g) => g.group)).toEqual(['Arithmetic', 'MedClaim', 'Trivia'])
    expect(facets.seats).toEqual(['A1', 'A2', 'A3', 'A4', 'A5'])
    const human = await call<{ total: number; rows: { label: { source: string } }[] }>('queue.page', { filter: { decision: 'human', labelSource: 'escalation' } })
    expect(human.total).toBe(DEMO_ESCALATIONS)
  })

  it('weighs the persistent adversary negatively, flags the sleeper’s drift, and shows a deferred task’s verdict', async () => {
    const current = (await call<{ id: string; current: boolean }[]>('fits.list')).find((f) => f.current)
    const fit = await call<{ seats: { seat: string; weight: number; adversarial: boolean; drift: { flagged: boolean } | null }[] }>('fits.get', { fitId: current?.id })
    const a4 = fit.seats.find((s) => s.seat === 'A4')
    expect(a4?.weight).toBeLessThan(0)
    expect(a4?.adversarial).toBe(true)
    expect(fit.seats.find((s) => s.seat === 'A5')?.drift?.flagged).toBe(true)
    const queue = await call<{ rows: { taskId: string }[] }>('queue.page', { limit: 1 })
    const d = await call<{ verdict: { seats: { seat: string }[]; rounds: unknown[]; decision: { decision: string; why: unknown } }; moves: { text: string | null }[] }>('task.detail', { taskId: queue.rows[0].taskId })
    expect(d.verdict.decision.decision).toBe('defer')
    expect(d.verdict.decision.why).not.toBeNull()
    expect(d.verdict.rounds.length).toBeGreaterThanOrEqual(3)
    expect(d.moves.some((m) => (m.text ?? '').length > 20)).toBe(true)
  })

  it('draws unlabeled tasks for Calibrate, and hides the verdict until labeled', async () => {
    const draw = await call<{ taskId: string; unlabeled: number; randomLabels: number }>('calibrate.draw', {})
    expect(draw).toMatchObject({ unlabeled: DEMO_TASKS - DEMO_RANDOM_LABELS - DEMO_ESCALATIONS, randomLabels: DEMO_RANDOM_LABELS })
    const blind = await call<{ verdict: unknown; state: unknown; blind: boolean }>('task.detail', { taskId: draw.taskId, blind: true })
    expect(blind).toMatchObject({ verdict: null, state: null, blind: true })
    // The open draw stands until labeled or skipped (switching streams re-draws nothing); a skip
    // asking for the spot-check stream draws from it.
    expect((await call<{ taskId: string }>('calibrate.draw', { spotCheckOnly: true })).taskId).toBe(draw.taskId)
    const spot = await call<{ taskId: string }>('calibrate.skip', { taskId: draw.taskId, spotCheckOnly: true })
    // Drawn for this login, its row shows it no verdict (spot-checked or not) until labeled: ask as another.
    const other = { ...service.context(), reviewer: 'another-reviewer', sessionId: 'another-window' }
    const page = await dispatch(service.handlers, 'queue.page', { filter: { decision: null, search: spot.taskId } }, other)
    const row = page.ok ? (page.value as { rows: { taskId: string; spotCheck: boolean }[] }).rows[0] : null
    expect(row).toMatchObject({ taskId: spot.taskId, spotCheck: true })
  })

  it('starts empty on request: the demo is moved aside and an empty database opened in its place', async () => {
    const r = await call<{ dbLocation: string; demoMovedTo: string }>('demo.startEmpty')
    expect(r.dbLocation).toBe(dbLocation)
    expect(existsSync(r.demoMovedTo)).toBe(true)
    expect(await call('app.counts')).toMatchObject({ tasks: 0, labels: 0, fits: 0 })
    expect(await call('demo.status')).toMatchObject({ demo: false })
    const again = await dispatch(service.handlers, 'demo.startEmpty', {}, service.context())
    expect(again).toMatchObject({ ok: false, error: { code: 'conflict' } })
    const kept = await openStore(r.demoMovedTo, { readonly: true })
    expect((await kept.counts()).tasks).toBe(DEMO_TASKS)
    await kept.close()
  })
})

describe('first launch', () => {
  it('creates the demo only for the default database, unless asked', () => {
    expect(isFirstLaunch(join(dir, 'missing.db'), undefined)).toBe(false)
    expect(isFirstLaunch(join(dir, 'missing.db'), true)).toBe(true)
    expect(isFirstLaunch(dbLocation, true)).toBe(false)
    expect(isFirstLaunch(defaultDbLocation(), false)).toBe(false)
  })

  it('serve creates the demo database when there is none yet', async () => {
    const path = join(dir, 'first', 'arbiter.db')
    const { mkdirSync } = await import('node:fs')
    mkdirSync(join(dir, 'first'))
    const server = await startConsoleServer({ dbLocation: path, demoIfMissing: true })
    try {
      const counts = await server.service.handlers['app.counts']({}, server.service.context())
      expect(counts.tasks).toBe(DEMO_TASKS)
      expect(await server.service.handlers['demo.status']({}, server.service.context())).toMatchObject({ demo: true })
    } finally {
      await server.close()
    }
    await expect(createDemoDatabase(path)).rejects.toMatchObject({ code: 'bad_input' })
  })
})
