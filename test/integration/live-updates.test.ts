/**
 * Live updates across reviewers: two consoles — two services, each with its own store
 * connection, as two `serve`s on one shared database location — on one database. B listens to its events;
 * A resolves a task from the top of the queue; B hears `changed` with `labels` and `tasks` within
 * a bounded time without anyone reloading, and B's next queue page no longer lists the task.
 * On SQLite B's watcher polls the data version (1 s); on PostgreSQL the change arrives by
 * LISTEN/NOTIFY with the resolve's own topics (a poll reports every topic, `settings` included).
 * The PostgreSQL feed is also cut (its session terminated on the server): the watcher falls back
 * to polling at once, reports what was committed meanwhile, and listens again.
 */
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CallContext, QueuePageResult } from '../../src/shared/api'
import type { ApiEvent, Topic } from '../../src/shared/events'
import { dispatch } from '../../src/main/host/dispatch'
import { createService, type Service } from '../../src/main/service'
import { createDemoDatabase } from '../../src/main/service/demo'
import { watchExternalWrites } from '../../src/main/service/watch'
import { openStore, type Store } from '../../src/main/store'
import { LISTEN_APPLICATION } from '../../src/main/store/postgres/notify'
import { postgresDatabase, sqliteFile, type DbLocation, type MakeDbLocation } from '../helpers/db-location'
import { POSTGRES, usePostgres } from '../helpers/postgres'
import { describeWith } from '../helpers/prerequisites'

/** How long B may take to hear of A's resolve: a poll tick (1 s) plus slack for a busy machine. */
const BOUND_MS = 5000
const QUEUE = { filter: { decision: 'defer' }, sort: 'gap', direction: 'asc', limit: 50 } as const

async function call<T>(service: Service, ctx: CallContext, method: string, args: unknown): Promise<T> {
  const env = await dispatch(service.handlers, method, args, ctx)
  if (!env.ok) throw new Error(`${method}: ${env.error.message}`)
  return env.value as T
}

/** Resolves with the first `changed` event that satisfies `wanted`, and how long it took. */
function nextChange(service: Service, wanted: (topics: Topic[]) => boolean): Promise<{ topics: Topic[]; ms: number }> {
  const t0 = performance.now()
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      stop()
      reject(new Error(`no matching changed event within ${BOUND_MS} ms`))
    }, BOUND_MS)
    const stop = service.subscribe((e: ApiEvent) => {
      if (e.type !== 'changed' || !wanted(e.topics)) return
      clearTimeout(timer)
      stop()
      resolve({ topics: e.topics, ms: performance.now() - t0 })
    })
  })
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

function defineLiveSuite(name: string, makeDbLocation: MakeDbLocation): void {
  describe(`live updates between two consoles on one ${name} database`, () => {
    let location: DbLocation
    let a: Service
    let b: Service

    beforeAll(async () => {
      location = await makeDbLocation()
      await createDemoDatabase(location.dbLocation, { shell: 'web' })
      const open = async () => createService({ store: await openStore(location.dbLocation), dbLocation: location.dbLocation, nativeBinding: null, shell: 'web' })
      a = await open()
      b = await open()
      // No background refit: every write in this test is a reviewer's.
      await call(a, a.context(), 'engine.updateSettings', { patch: { autoRefit: false } })
      await sleep(1500) // B's watcher has seen the setup (its own event, not the one under test)
    })

    afterAll(async () => {
      await a?.close()
      await b?.close()
      await location?.cleanup()
    })

    it("B's queue reflects A's resolve within a few seconds, without a reload", async () => {
      const ctxA = { ...a.context(), reviewer: 'alice', sessionId: 'alice-1' }
      const ctxB = { ...b.context(), reviewer: 'bob', sessionId: 'bob-1' }
      const before = await call<QueuePageResult>(b, ctxB, 'queue.page', QUEUE)
      const row = before.rows.find((r) => r.label === null)
      expect(row, 'an unlabeled deferred task on the first page').toBeDefined()
      const taskId = row!.taskId

      const heard = nextChange(b, (t) => t.includes('labels') && t.includes('tasks'))
      await call(a, ctxA, 'labels.resolve', { taskId, label: row!.candidates[0], expectedVersion: row!.version })
      const { topics, ms } = await heard
      console.log(`[live ${name}] B heard A's resolve after ${ms.toFixed(0)} ms: ${topics.join(', ')}`)
      expect(ms).toBeLessThan(BOUND_MS)
      if (location.backend === 'postgres') {
        // Pushed, not polled: the resolve's own topics, and faster than a poll tick.
        expect(topics).not.toContain('settings')
        expect(ms).toBeLessThan(1000)
      }

      const after = await call<QueuePageResult>(b, ctxB, 'queue.page', QUEUE)
      expect(after.rows.map((r) => r.taskId)).not.toContain(taskId)
      expect(after.total).toBe(before.total - 1)
    })

    it('B hears nothing of its own writes twice, and A hears B', async () => {
      const ctxB = { ...b.context(), reviewer: 'bob', sessionId: 'bob-1' }
      const page = await call<QueuePageResult>(b, ctxB, 'queue.page', QUEUE)
      const row = page.rows.find((r) => r.label === null)!
      const seenByB: Topic[][] = []
      const stop = b.subscribe((e) => void (e.type === 'changed' && seenByB.push(e.topics)))
      const heardByA = nextChange(a, (t) => t.includes('labels'))
      await call(b, ctxB, 'labels.resolve', { taskId: row.taskId, label: row.candidates[0], expectedVersion: row.version })
      await heardByA
      await sleep(1500) // a poll tick and a coalescing window later
      stop()
      // B's own write was announced once, by B itself (its watcher ignores its own commits).
      expect(seenByB.filter((t) => t.includes('labels'))).toHaveLength(1)
    })
  })
}

const cluster = usePostgres()

defineLiveSuite('SQLite', sqliteFile('arbiter-live-'))
describeWith(POSTGRES, 'on PostgreSQL', () => defineLiveSuite('PostgreSQL', postgresDatabase(cluster)))

describeWith(POSTGRES, 'the PostgreSQL change feed', () => {
  let url: string
  let writer: Store
  let watched: Store
  let admin: pg.Client

  beforeAll(async () => {
    url = await cluster().createDatabase()
    writer = await openStore(url)
    watched = await openStore(url)
    admin = new pg.Client({ connectionString: url })
    await admin.connect()
  })

  afterAll(async () => {
    await admin?.end()
    await writer?.close()
    await watched?.close()
  })

  const settle = (ms = 300) => sleep(ms)
  /** Runs `body` with a watcher on `store`; the watcher is stopped even when an expectation fails. */
  const watching = async (store: Store, opts: Parameters<typeof watchExternalWrites>[2], body: (seen: Topic[][]) => Promise<void>) => {
    const seen: Topic[][] = []
    const stop = watchExternalWrites(store, (t) => seen.push(t), opts)
    try {
      await body(seen)
    } finally {
      stop()
    }
  }
  const listeners = async () =>
    (await admin.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND datname = current_database()', [LISTEN_APPLICATION])).rows

  it('reports other writers’ topics as they commit, coalesced, never its own store’s, and nothing rolled back', async () => {
    // A long poll period: anything seen within it came through the feed.
    await watching(watched, { intervalMs: 60_000 }, async (seen) => {
      await settle()
      expect(await listeners()).toHaveLength(1)

      const actor = { reviewer: 'w', sessionId: 'w-1', shell: 'cli' as const }
      await writer.setSettings({ reviewer: 'w' }, actor)
      await settle()
      expect(seen).toEqual([['settings', 'audit']])

      // Two commits within the coalescing window: one event, their topics' union.
      seen.length = 0
      await Promise.all([writer.setSettings({ reviewer: 'x' }, actor), writer.setSettings({ reviewer: 'y' }, actor)])
      await settle()
      expect(seen).toEqual([['settings', 'audit']])

      // The watched store's own write: its service announces it itself.
      seen.length = 0
      await watched.setSettings({ reviewer: 'z' }, actor)
      // A write that fails (an empty patch) commits nothing and notifies nobody.
      await expect(writer.setSettings({}, actor)).rejects.toThrow(/at least one key/)
      await settle()
      expect(seen).toEqual([])
    })
    await settle()
    expect(await listeners()).toHaveLength(0)
  })

  it('falls back to polling when the listening session is lost, reports what it missed, and listens again', async () => {
    await watching(watched, { intervalMs: 200, retryMs: 1500 }, async (seen) => {
      await settle()
      const [session] = await listeners()
      expect(session).toBeDefined()
      await admin.query('SELECT pg_terminate_backend($1)', [session.pid])
      await settle(100)
      // Committed while nobody listens: only the poll can report it, with every topic.
      await writer.setSettings({ reviewer: 'while-down' }, { reviewer: 'w', sessionId: 'w-2', shell: 'cli' })
      await settle(600)
      expect(seen.some((t) => t.includes('settings') && t.includes('labels'))).toBe(true)
      // The retry listens again (a new session) and polling stops: topics are precise once more.
      await settle(2000)
      const [again] = await listeners()
      expect(again?.pid).toBeDefined()
      expect(again.pid).not.toBe(session.pid)
      seen.length = 0
      await writer.setSettings({ reviewer: 'back' }, { reviewer: 'w', sessionId: 'w-3', shell: 'cli' })
      await settle()
      expect(seen).toEqual([['settings', 'audit']])
    })
  })

  it('a closed store leaves no listening session behind', async () => {
    const other = await openStore(url)
    await watching(other, {}, async () => {
      await settle()
      expect(await listeners()).toHaveLength(1)
      // Closed under a running watcher (whose stop comes later): the store ends its session itself.
      await other.close()
      await settle()
      expect(await listeners()).toHaveLength(0)
    })
  })
})
