/**
 * The queue and the counts agree: a task another reviewer holds is left out of the caller's queue
 * (so two reviewers do not open it at once) but stays in the counts. The queue page says how many
 * matching tasks are held by others, so the list plus those held is the count — for the default
 * view (the fit's stored counts) and for a filtered one (a counted query) alike.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CallContext, Counts, QueuePageResult } from '../../src/shared/api'
import { dispatch } from '../../src/main/host/dispatch'
import { createService, type Service } from '../../src/main/service'
import { createDemoDatabase } from '../../src/main/service/demo'
import { openStore } from '../../src/main/store'
import { postgresDatabase, sqliteFile, type DbLocation, type MakeDbLocation } from '../helpers/db-location'
import { POSTGRES, usePostgres } from '../helpers/postgres'
import { describeWith } from '../helpers/prerequisites'

function defineHeldSuite(name: string, makeDbLocation: MakeDbLocation): void {
  describe(`the queue says how many of its tasks another reviewer holds (${name})`, () => {
    let location: DbLocation
    let service: Service

    async function call<T>(ctx: CallContext, method: string, args: unknown): Promise<T> {
      const env = await dispatch(service.handlers, method, args, ctx)
      if (!env.ok) throw new Error(`${method}: ${env.error.message}`)
      return env.value as T
    }

    const deferredQueue = (ctx: CallContext, filter: Record<string, unknown> = {}) =>
      call<QueuePageResult>(ctx, 'queue.page', { filter: { decision: 'defer', ...filter }, sort: 'gap', direction: 'asc', limit: 50 })

    beforeAll(async () => {
      location = await makeDbLocation()
      await createDemoDatabase(location.dbLocation, { shell: 'web' })
      service = await createService({ store: await openStore(location.dbLocation), dbLocation: location.dbLocation, nativeBinding: null, shell: 'web' })
      await call(service.context(), 'engine.updateSettings', { patch: { autoRefit: false } })
    }, 120_000)

    afterAll(async () => {
      await service?.close()
      await location?.cleanup()
    })

    it('list + held by others = the deferred count, and the holder’s own queue holds nothing back', async () => {
      const alice = { ...service.context(), reviewer: 'alice', sessionId: 'alice-1' }
      const bob = { ...service.context(), reviewer: 'bob', sessionId: 'bob-1' }
      const before = await deferredQueue(alice)
      expect(before.heldByOthers).toBe(0)
      const counts = await call<Counts>(alice, 'app.counts', {})
      expect(before.total).toBe(counts.deferred)

      // Bob opens two deferred tasks: Alice's queue leaves both out and says so.
      const [first, second] = before.rows
      const group = first.group
      for (const r of [first, second]) expect((await call<{ mine: unknown }>(bob, 'task.reserve', { taskId: r.taskId })).mine).not.toBeNull()
      const during = await deferredQueue(alice)
      expect(during.rows.map((r) => r.taskId)).not.toContain(first.taskId)
      expect(during.total).toBe(before.total - 2)
      expect(during.heldByOthers).toBe(2)
      expect(during.total + during.heldByOthers).toBe((await call<Counts>(alice, 'app.counts', {})).deferred)

      // A filtered view counts only the held tasks it matches.
      const all = await deferredQueue(alice, { group })
      const inGroup = [first, second].filter((r) => r.group === group).length
      expect(all.heldByOthers).toBe(inGroup)
      const none = await deferredQueue(alice, { search: first.taskId })
      expect(none.total).toBe(0)
      expect(none.heldByOthers).toBe(1)

      // Bob's own queue leaves nothing out for his holds.
      const own = await deferredQueue(bob)
      expect(own.heldByOthers).toBe(0)
      expect(own.total).toBe(before.total)

      // Released: back in Alice's list, nothing held.
      for (const r of [first, second]) await call(bob, 'task.release', { taskId: r.taskId })
      const after = await deferredQueue(alice)
      expect(after.heldByOthers).toBe(0)
      expect(after.total).toBe(before.total)
    })
  })
}

const cluster = usePostgres()

defineHeldSuite('SQLite', sqliteFile('arbiter-queue-held-'))
describeWith(POSTGRES, 'on PostgreSQL', () => defineHeldSuite('PostgreSQL', postgresDatabase(cluster)))
