/**
 * The service over a real database, on either backend (service.test.ts runs it on both):
 * counts and the database location it reports, settings and their events, the integrity check and a large
 * import in worker threads that open the store by its database location (a file path or a postgres:// URL),
 * another connection's commit turned into a `changed` event, and error codes across the envelope.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { ApiEvent } from '../../../src/shared/events'
import { dispatch, toErrorBody } from '../../../src/main/host/dispatch'
import { createService, type Service } from '../../../src/main/service'
import { cleanCouncil, toJsonl } from '../../../src/main/sim'
import { openStore, passwordFree, StoreError } from '../../../src/main/store'
import type { DbLocation, MakeDbLocation } from '../../helpers/db-location'
import { exampleTraces, seedTraces, TEST_ACTOR } from '../../helpers/seed'

/** At least the import's THREADED_FROM: pass 2 is written by the writer thread. */
const LARGE_IMPORT_TASKS = 10_000

export function defineServiceSuite(name: string, makeDbLocation: MakeDbLocation): void {
  describe(`service over ${name}`, () => {
    let location: DbLocation
    let dbLocation: string
    let service: Service
    let events: ApiEvent[]

    beforeEach(async () => {
      location = await makeDbLocation()
      dbLocation = location.dbLocation
      const store = await openStore(dbLocation)
      await seedTraces(store, exampleTraces())
      service = await createService({ store, dbLocation, nativeBinding: null, shell: 'web' })
      events = []
      service.subscribe((e) => events.push(e))
    })

    afterEach(async () => {
      await service?.close()
      await location?.cleanup()
    })

    const call = (method: string, args: unknown = {}) => dispatch(service.handlers, method, args, service.context())

    it('reports counts from the store, and its backend and database location', async () => {
      expect(await call('app.counts')).toEqual({
        ok: true,
        value: { tasks: 3, seats: 3, moves: 15, labels: 0, labeledTasks: 0, deferred: 0, acted: 0, spotCheck: 0, fits: 0 }
      })
      const info = await call('app.info')
      const shown = location.backend === 'postgres' ? passwordFree(dbLocation) : dbLocation
      expect(info).toMatchObject({ ok: true, value: { backend: location.backend, dbLocation: shown, shell: 'web' } })
    })

    it('validates arguments and emits the topics a write changed', async () => {
      expect(await call('settings.get')).toEqual({ ok: true, value: { reviewer: 'reviewer', theme: 'system', dwellMs: 400 } })
      const bad = await call('settings.update', { patch: { theme: 'neon' } })
      expect(bad).toMatchObject({ ok: false, error: { code: 'bad_input' } })
      expect(await call('settings.update', { patch: { reviewer: 'ana', theme: 'dark' } })).toEqual({ ok: true, value: { reviewer: 'ana', theme: 'dark', dwellMs: 400 } })
      expect(service.context().reviewer).toBe('ana')
      // The reading time before a label counts: whole milliseconds from 0 (off) to 5 s; anything else writes nothing.
      for (const dwellMs of [-1, 5001, 0.5, '400']) {
        expect(await call('settings.update', { patch: { dwellMs } })).toMatchObject({ ok: false, error: { code: 'bad_input' } })
      }
      expect(await call('settings.update', { patch: { dwellMs: 0 } })).toEqual({ ok: true, value: { reviewer: 'ana', theme: 'dark', dwellMs: 0 } })
      expect(events).toContainEqual(expect.objectContaining({ type: 'changed', topics: expect.arrayContaining(['settings']) }))
    })

    it('runs the integrity check in a worker thread with progress events', async () => {
      const res = await call('db.checkIntegrity')
      expect(res).toMatchObject({ ok: true, value: { ok: true, messages: [] } })
      const phases = events.filter((e) => e.type === 'job').map((e) => (e.type === 'job' ? e.phase : ''))
      expect(phases[0]).toBe('started')
      expect(phases).toContain('running')
      expect(phases.at(-1)).toBe('done')
    })

    it('writes a large import from the writer thread, which opens the store by its database location', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'arbiter-svc-large-'))
      try {
        const file = join(dir, 'large.trace.jsonl')
        writeFileSync(file, [...cleanCouncil({ tasks: LARGE_IMPORT_TASKS, seed: 5 })].map((t) => `${toJsonl(t)}\n`).join(''))
        // A host path: as the CLI's own code hands it over (a console window uploads instead).
        const r = await dispatch(service.handlers, 'imports.run', { source: { kind: 'path', path: file } }, { ...service.context(), shell: 'cli' })
        expect(r, JSON.stringify(r).slice(0, 600)).toMatchObject({ ok: true, value: { status: 'imported', tasks: LARGE_IMPORT_TASKS } })
        expect(await call('app.counts')).toMatchObject({ ok: true, value: { tasks: LARGE_IMPORT_TASKS + 3 } })
      } finally {
        rmSync(dir, { recursive: true, force: true })
      }
    })

    it('turns another connection’s commit into a changed event', async () => {
      const other = await openStore(dbLocation)
      try {
        const s = await other.getTaskSummary('medclaim-0001')
        await other.recordLabel({ taskId: 'medclaim-0001', label: 'true', source: 'random', reviewer: 'bo', expectedVersion: s.version }, TEST_ACTOR)
      } finally {
        await other.close()
      }
      await expect.poll(() => events.some((e) => e.type === 'changed' && e.topics.includes('labels')), { timeout: 5000 }).toBe(true)
      expect(await call('app.counts')).toMatchObject({ value: { labels: 1, labeledTasks: 1 } })
    })

    it('keeps store error codes across the envelope and hides internal errors', () => {
      expect(toErrorBody(new StoreError('conflict', 'stale', { taskId: 't' }))).toEqual({ code: 'conflict', message: 'stale', details: { taskId: 't' } })
      const original = console.error
      console.error = () => {}
      try {
        expect(toErrorBody(new Error('secret path /home/x'))).toEqual({ code: 'internal', message: 'internal error (see the main process log)', details: null })
      } finally {
        console.error = original
      }
    })
  })
}
