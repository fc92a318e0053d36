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
import { FLAG_RATE } from '../../src/shared/server-limits'
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
    const n = FLAG_RATE.burst + 1
    // All sent at once: the bucket cannot refill between them.
    const outcomes = await Promise.all(taskIds.slice(0, n).map((taskId, i) => send('flags.add', { taskId, reason: `flood ${i}` }, as('mallory'))))
    expect(outcomes.filter((o) => o.ok)).toHaveLength(FLAG_RATE.burst)
    const refused = outcomes.filter((o): o is Extract<Envelope<unknown>, { ok: false }> => !o.ok)
    expect(refused).toHaveLength(1)
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
