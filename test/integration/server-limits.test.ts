/**
 * What one login may make the server spend (src/shared/server-limits.ts): flags per second, audit
 * computations and integrity checks at once, fits queued. Each is checked by what the calls return
 * and the jobs they start, never by timing.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CallContext } from '../../src/shared/api'
import type { Envelope } from '../../src/shared/errors'
import type { ApiEvent } from '../../src/shared/events'
import { AUDIT_WORKERS, FLAG_RATE } from '../../src/shared/server-limits'
import { dispatch } from '../../src/main/host/dispatch'
import { createService, type Service } from '../../src/main/service'
import { createDemoDatabase } from '../../src/main/service/demo'
import { openStore } from '../../src/main/store'

let dir: string
let dbLocation: string
let service: Service
let taskIds: string[]

const as = (reviewer: string): CallContext => ({ ...service.context(), reviewer })
const send = (method: string, args: unknown = {}, ctx: CallContext = service.context()): Promise<Envelope<unknown>> => dispatch(service.handlers, method, args, ctx)
async function call<T = unknown>(method: string, args: unknown = {}, ctx: CallContext = service.context()): Promise<T> {
  const env = await send(method, args, ctx)
  if (!env.ok) throw Object.assign(new Error(env.error.message), env.error)
  return env.value as T
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'arbiter-limits-'))
  dbLocation = join(dir, 'demo.db')
  await createDemoDatabase(dbLocation)
  service = await createService({ store: await openStore(dbLocation), dbLocation, nativeBinding: null, shell: 'web' })
  await call('engine.updateSettings', { patch: { autoRefit: false } })
  const page = await call<{ rows: { taskId: string }[] }>('queue.page', { limit: 40 })
  taskIds = page.rows.map((r) => r.taskId)
}, 120_000)

afterAll(async () => {
  await service.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('flags.add is rate-limited per login', () => {
  it('refuses the flag past the burst with a rate-limited conflict, and other logins still flag', async () => {
    const n = 2 * FLAG_RATE.burst
    expect(taskIds.length).toBeGreaterThanOrEqual(n)
    // All sent at once: the burst passes, and past it only what the bucket refilled while they were
    // handled (on a loaded machine the last ones are handled a while after the first).
    const started = performance.now()
    const outcomes = await Promise.all(taskIds.slice(0, n).map((taskId, i) => send('flags.add', { taskId, reason: `flood ${i}` }, as('mallory'))))
    const refilled = Math.ceil(((performance.now() - started) / 1000) * FLAG_RATE.perSecond)
    const accepted = outcomes.filter((o) => o.ok).length
    expect(accepted).toBeGreaterThanOrEqual(FLAG_RATE.burst)
    expect(accepted).toBeLessThanOrEqual(FLAG_RATE.burst + refilled)
    const refused = outcomes.filter((o): o is Extract<Envelope<unknown>, { ok: false }> => !o.ok)
    expect(refused).toHaveLength(n - accepted)
    expect(refused.length).toBeGreaterThan(0)
    expect(refused[0].error).toMatchObject({ code: 'conflict', message: expect.stringMatching(/too many flags/), details: { reason: 'rate-limited' } })
    await expect(call('flags.add', { taskId: taskIds[0], reason: 'a real doubt' }, as('alice'))).resolves.toMatchObject({ reason: 'a real doubt' })
  })
})

describe('fits.run coalesces queued fits', () => {
  it('a fits.run while one is queued returns the queued one, not a new job', async () => {
    const before = (await call<unknown[]>('fits.list', { limit: 100 })).length
    const running = call<{ id: string }>('fits.run')
    await expect.poll(async () => (await call<{ running: boolean }>('fits.status')).running).toBe(true)
    const queued = await Promise.all([0, 1, 2, 3].map(() => call<{ id: string }>('fits.run', {}, as('mallory'))))
    const first = await running
    expect(new Set(queued.map((f) => f.id)).size).toBe(1)
    expect(queued[0].id).not.toBe(first.id)
    expect((await call<unknown[]>('fits.list', { limit: 100 })).length).toBe(before + 2)
  }, 120_000)
})

/** Counts the jobs of `kind` the service starts while `run` runs, and the most running at once. */
async function jobsDuring(kind: string, run: () => Promise<unknown>): Promise<{ started: number; most: number }> {
  let running = 0
  let started = 0
  let most = 0
  const off = service.subscribe((e: ApiEvent) => {
    if (e.type !== 'job' || e.kind !== kind) return
    if (e.phase === 'started') {
      started++
      most = Math.max(most, ++running)
    } else if (e.phase === 'done' || e.phase === 'failed') running--
  })
  try {
    await run()
  } finally {
    off()
  }
  return { started, most }
}

describe('audit computations and integrity checks are bounded', () => {
  it('eight opens of the Audit screen, each after a settings change, never run more than AUDIT_WORKERS audits at once', async () => {
    const opens: Promise<{ computedAt: string }>[] = []
    const jobs = await jobsDuring('audit', async () => {
      for (let i = 0; i < 8; i++) {
        await call('engine.updateSettings', { patch: { seed: 1000 + i } })
        opens.push(call('audit.summary'))
      }
      await Promise.all(opens)
    })
    expect(jobs.most).toBeLessThanOrEqual(AUDIT_WORKERS)
    expect(jobs.started).toBeLessThan(8)
    // The last open waited for a summary of the newest settings: opening again is served from the cache.
    const last = await opens[7]
    const again = await jobsDuring('audit', () => call('audit.summary'))
    expect(again.started).toBe(0)
    expect((await call<{ computedAt: string }>('audit.summary')).computedAt).toBe(last.computedAt)
  }, 180_000)

  it('concurrent integrity checks share the running one', async () => {
    let results: { jobId: string; ok: boolean }[] = []
    const jobs = await jobsDuring('integrity-check', async () => {
      results = await Promise.all([0, 1, 2, 3].map(() => call<{ jobId: string; ok: boolean }>('db.checkIntegrity')))
    })
    expect(jobs.started).toBe(1)
    expect(new Set(results.map((r) => r.jobId)).size).toBe(1)
    expect(results[0].ok).toBe(true)
    // Once it has finished, the next check is a new one.
    const next = await call<{ jobId: string }>('db.checkIntegrity')
    expect(next.jobId).not.toBe(results[0].jobId)
  }, 60_000)
})
