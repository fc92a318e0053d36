/**
 * "Start empty" on both backends: who may replace a demo database. A team's login never may (the
 * database is everyone's), and a demo that has since received the user's own imports is no longer
 * the demo to throw away; the console's offer (`demo.status`) says the same as the server's refusal.
 */
import { existsSync } from 'node:fs'
import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { dispatch } from '../../src/main/host/dispatch'
import { createService, type Service } from '../../src/main/service'
import { DEMO_ACTOR, DEMO_FILE } from '../../src/main/service/demo'
import { DEMO_KEY } from '../../src/main/service/engine-settings'
import { openStore, type Actor } from '../../src/main/store'
import type { CallContext } from '../../src/shared/api'
import { postgresDatabase, sqliteFile, type MakeDbLocation } from '../helpers/db-location'
import { POSTGRES, usePostgres } from '../helpers/postgres'
import { describeWith } from '../helpers/prerequisites'
import { exampleTraces, taskInput, TEST_ACTOR } from '../helpers/seed'

const cluster = usePostgres()

const DEMO: Actor = { reviewer: DEMO_ACTOR, sessionId: 'demo-session', shell: 'cli' }

/** A small database recorded the way the demo records itself: its import, by the demo, and the marker. */
async function demoLike(dbLocation: string): Promise<string[]> {
  const store = await openStore(dbLocation)
  try {
    const traces = exampleTraces()
    const sha = createHash('sha256').update(traces.map((t) => JSON.stringify(t)).join('\n')).digest('hex')
    const begun = await store.beginImport({ fileName: DEMO_FILE, sha256: sha, kind: 'traces' }, DEMO)
    await store.writeImportBatch(begun.value.id, { tasks: traces.map(taskInput) })
    await store.publishImport(begun.value.id, DEMO)
    await store.setSettings({ [DEMO_KEY]: { createdAt: new Date().toISOString(), seed: 0 } }, DEMO)
    return traces.map((t) => t.task)
  } finally {
    await store.close()
  }
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: { code: string; message: string } }

function defineStartEmptySuite(name: string, make: MakeDbLocation): void {
  describe(`start empty on ${name}`, () => {
    async function withService(body: (service: Service, dbLocation: string, tasks: string[]) => Promise<void>): Promise<void> {
      const loc = await make()
      const tasks = await demoLike(loc.dbLocation)
      const service = await createService({ store: await openStore(loc.dbLocation), dbLocation: loc.dbLocation, nativeBinding: null, shell: 'web' })
      try {
        await body(service, loc.dbLocation, tasks)
      } finally {
        await service.close()
        await loc.cleanup()
      }
    }
    const call = (service: Service, method: string, ctx: CallContext) => dispatch(service.handlers, method, {}, ctx) as Promise<Outcome>

    it("is refused to a team's login, and not offered to it: the shared demo stays as it is", async () => {
      await withService(async (service, dbLocation, tasks) => {
        const bob: CallContext = { ...service.context(), reviewer: 'bob', reviewerFromToken: true }
        const status = await call(service, 'demo.status', bob)
        expect(status).toMatchObject({ ok: true, value: { demo: true, startEmptyRefusal: expect.stringContaining('team mode') } })
        const r = await call(service, 'demo.startEmpty', bob)
        expect(r).toMatchObject({ ok: false, error: { code: 'unauthorized', message: expect.stringContaining('team mode') } })
        expect(await call(service, 'app.counts', bob)).toMatchObject({ ok: true, value: { tasks: tasks.length } })
        expect(await call(service, 'demo.status', bob)).toMatchObject({ ok: true, value: { demo: true } })
        if (!dbLocation.startsWith('postgres')) expect(existsSync(dbLocation)).toBe(true)
      })
    })

    it('is refused, and not offered, once the demo received real imports', async () => {
      await withService(async (service, dbLocation, tasks) => {
        const ctx = service.context()
        const store = await openStore(dbLocation)
        try {
          const labels = [{ taskId: tasks[0]!, label: 'true', source: 'escalation' as const, reviewer: 'alice', at: new Date().toISOString(), note: null }]
          await store.importLabels({ fileName: 'my-labels.csv', sha256: 'a'.repeat(64), kind: 'labels', labels }, TEST_ACTOR)
        } finally {
          await store.close()
        }
        const status = await call(service, 'demo.status', ctx)
        expect(status.ok && (status.value as { startEmptyRefusal: string | null }).startEmptyRefusal).toEqual(expect.any(String))
        const r = await call(service, 'demo.startEmpty', ctx)
        expect(r.ok).toBe(false)
        if (!dbLocation.startsWith('postgres')) {
          expect(r).toMatchObject({ ok: false, error: { code: 'conflict', message: expect.stringContaining('my-labels.csv') } })
          expect(existsSync(dbLocation)).toBe(true)
        }
        expect(await call(service, 'app.counts', ctx)).toMatchObject({ ok: true, value: { tasks: tasks.length, labels: 1 } })
      })
    })

    if (name === 'a SQLite file') {
      it('is offered and done for the single user of a demo file with nothing of their own imported', async () => {
        await withService(async (service, dbLocation) => {
          const ctx = service.context()
          const events: unknown[] = []
          const stop = service.subscribe((e) => events.push(e))
          expect(await call(service, 'demo.status', ctx)).toMatchObject({ ok: true, value: { demo: true, startEmptyRefusal: null } })
          const r = await call(service, 'demo.startEmpty', ctx)
          expect(r).toMatchObject({ ok: true })
          const movedTo = (r as { value: { demoMovedTo: string } }).value.demoMovedTo
          expect(existsSync(movedTo)).toBe(true)
          expect(await call(service, 'app.counts', ctx)).toMatchObject({ ok: true, value: { tasks: 0 } })
          // Every open console hears that its database was replaced, by whom, and where the demo went.
          expect(events).toContainEqual({ type: 'database-replaced', by: ctx.reviewer, demoMovedTo: movedTo })
          stop()
          expect(dbLocation).not.toBe(movedTo)
        })
      })
    }
  })
}

defineStartEmptySuite('a SQLite file', sqliteFile('arbiter-start-empty-'))
describeWith(POSTGRES, 'on PostgreSQL', () => defineStartEmptySuite('PostgreSQL', postgresDatabase(cluster)))
