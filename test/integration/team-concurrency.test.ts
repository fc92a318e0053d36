/**
 * A team on one database: eight reviewers, each with their own console — their own
 * service, store connection and loopback web host, as eight `serve`s over one shared database location
 * would be — work one deferred queue at once for a bounded time, on each backend. Every client
 * reads the queue page, picks one of the first rows, reserves it, and resolves it with the version
 * it read (a well-behaved client skips a task another holds; some ignore the banner, as a hurried
 * reviewer would, so that resolves really race). Afterwards, from the database:
 * - no task is labelled twice unknowingly: a task holds at most one label row, and every other
 *   resolve of it was answered 409 `conflict` to its own client, at the version they all read;
 * - no label is lost: every acknowledged resolve is in the database exactly once, live, under its
 *   reviewer and session, and the label count grew by exactly the number acknowledged;
 * - every conflict is explained by another client's acknowledged label, or by that client's hold on
 *   the task while it had not labelled it yet.
 * Counts are printed; nothing is timed. TEAM_SECONDS (default 10) bounds each backend's run,
 * TEAM_SEED (default 9) seeds the clients' picks.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { QueueRow } from '../../src/shared/api'
import { DEFAULT_RENDERER_DIR } from '../../src/main/console-server'
import { dispatch } from '../../src/main/host/dispatch'
import type { WebHost } from '../../src/main/host/web'
import { createService, type Service } from '../../src/main/service'
import { createDemoDatabase } from '../../src/main/service/demo'
import { createRng } from '../../src/main/sim'
import { openStore } from '../../src/main/store'
import { postgresDatabase, sqliteFile, type DbLocation, type MakeDbLocation } from '../helpers/db-location'
import { POSTGRES, usePostgres } from '../helpers/postgres'
import { describeWith } from '../helpers/prerequisites'
import { sessionHost, webClient, type CallOutcome } from '../helpers/web-client'

const CLIENTS = 8
const SECONDS = Number(process.env.TEAM_SECONDS ?? 10)
const SEED = Number(process.env.TEAM_SEED ?? 9)
/** How far down the page a client looks: small, so that clients collide. */
const PICK_FROM = 6
/** How often a client resolves a task although another holds it. */
const IGNORE_BANNER = 0.3

interface Attempt {
  client: number
  taskId: string
  expectedVersion: number
  heldByOther: boolean
  outcome: CallOutcome<{ labelId: string; version: number }>
}

function defineTeamSuite(name: string, makeDbLocation: MakeDbLocation): void {
  describe(`${CLIENTS} reviewers on one ${name} database`, () => {
    let location: DbLocation | null = null
    const services: Service[] = []
    const hosts: WebHost[] = []

    beforeAll(async () => {
      location = await makeDbLocation()
      await createDemoDatabase(location.dbLocation, { shell: 'web' })
      for (let i = 0; i < CLIENTS; i++) {
        const service = await createService({ store: await openStore(location.dbLocation), dbLocation: location.dbLocation, nativeBinding: null, shell: 'web' })
        services.push(service)
        hosts.push(await sessionHost(service, DEFAULT_RENDERER_DIR, `reviewer-${i}`, `session-${i}`))
      }
      const ctx = services[0].context()
      // No background refit (every write is a client's), and a budget under which nothing acts:
      // every unlabeled task of the demo is in the deferred queue (a re-decide in a worker thread).
      const setup = [
        await dispatch(services[0].handlers, 'engine.updateSettings', { patch: { autoRefit: false } }, ctx),
        await dispatch(services[0].handlers, 'fits.redecide', { budget: { kind: 'absolute', beta: 0 } }, ctx)
      ]
      for (const r of setup) if (!r.ok) throw new Error(r.error.message)
      // A demo written to a server database, eight services and a re-decide: over vitest's 10 s
      // hook default on two busy cores while the other test files run.
    }, 120_000)

    afterAll(async () => {
      for (const h of hosts) await h.close()
      for (const s of services) await s.close()
      await location?.cleanup()
    })

    it('labels every task at most once, loses no acknowledged label, and reports every conflict', async () => {
      const check = await openStore((location as DbLocation).dbLocation)
      const before = await check.counts()
      expect(before.deferred).toBeGreaterThan(100)
      const attempts: Attempt[] = []
      const stats = { pages: 0, reserved: 0, heldByOther: 0, skipped: 0, ignoredBanner: 0, emptyPages: 0 }
      const deadline = Date.now() + SECONDS * 1000

      const client = async (i: number): Promise<void> => {
        const web = webClient(hosts[i])
        const random = createRng(SEED * 1000 + i).next
        const tried = new Set<string>()
        try {
          while (Date.now() < deadline) {
            const page = await web.call<{ rows: QueueRow[] }>('queue.page', { filter: { decision: 'defer' }, sort: 'gap', direction: 'asc', limit: 24 })
            if (!page.ok) throw new Error(`queue.page: ${page.error?.message}`)
            stats.pages++
            const open = (page.value?.rows ?? []).filter((r) => r.label === null && !tried.has(r.taskId)).slice(0, PICK_FROM)
            if (open.length === 0) {
              stats.emptyPages++
              if ((page.value?.rows ?? []).length === 0) return // the queue is done
              continue
            }
            const row = open[Math.floor(random() * open.length)]
            tried.add(row.taskId)
            const reserve = await web.call<{ mine: unknown; heldBy: { sessionId: string } | null }>('task.reserve', { taskId: row.taskId })
            if (!reserve.ok) throw new Error(`task.reserve: ${reserve.error?.message}`)
            const heldByOther = reserve.value?.heldBy != null
            if (heldByOther) {
              stats.heldByOther++
              if (random() >= IGNORE_BANNER) {
                stats.skipped++
                continue
              }
              stats.ignoredBanner++
            } else stats.reserved++
            const label = row.candidates[Math.floor(random() * row.candidates.length)]
            const outcome = await web.call<{ labelId: string; version: number }>('labels.resolve', { taskId: row.taskId, label, expectedVersion: row.version })
            attempts.push({ client: i, taskId: row.taskId, expectedVersion: row.version, heldByOther, outcome })
            // A refused resolve leaves the reservation to its holder; the client lets its own go.
            if (!outcome.ok && !heldByOther) await web.call('task.release', { taskId: row.taskId })
          }
        } finally {
          web.close()
        }
      }
      const started = Date.now()
      await Promise.all(Array.from({ length: CLIENTS }, (_, i) => client(i)))
      const seconds = (Date.now() - started) / 1000

      const won = attempts.filter((a) => a.outcome.ok)
      const refused = attempts.filter((a) => !a.outcome.ok)
      // Every attempt was answered 200 or a conflict its client saw: nothing else, nothing dropped.
      for (const a of attempts) expect([200, 409], `${a.taskId} by client ${a.client}: ${a.outcome.error?.message}`).toContain(a.outcome.status)
      for (const a of refused) expect(a.outcome.error).toMatchObject({ code: 'conflict', message: expect.stringContaining(a.taskId) })

      const byTask = new Map<string, Attempt[]>()
      for (const a of attempts) byTask.set(a.taskId, [...(byTask.get(a.taskId) ?? []), a])
      let contested = 0
      for (const [taskId, list] of byTask) {
        const winners = list.filter((a) => a.outcome.ok)
        // At most one acknowledged write per task; a conflict always has a winner that caused it.
        expect(winners.length, taskId).toBe(1)
        const w = winners[0]
        const detail = await check.taskDetail(taskId)
        // Exactly the winner's label, once, live: nobody's second write got in, nothing was lost.
        expect(detail.labelLog.map((l) => [l.id, l.reviewer, l.sessionId, l.supersedes]), taskId).toEqual([
          [w.outcome.value?.labelId, `reviewer-${w.client}`, `session-${w.client}`, null]
        ])
        expect(detail.liveLabels.map((l) => l.id)).toEqual([w.outcome.value?.labelId])
        expect(detail.reservation, taskId).toBeNull()
        expect((await check.getTaskSummary(taskId)).version).toBe(w.outcome.value?.version)
        expect(w.outcome.value?.version).toBe(w.expectedVersion + 1)
        const losers = list.filter((a) => !a.outcome.ok)
        if (losers.length > 0) contested++
        for (const l of losers) {
          // The loser read the same version as the winner: its write was the task's second one.
          expect(l.expectedVersion, taskId).toBe(w.expectedVersion)
          expect(l.client).not.toBe(w.client)
          // Refused for the winner's label (the version moved on) or for the winner's live hold on
          // the task (a resolve of a task another session holds is a conflict naming it).
          const details = l.outcome.error?.details as { currentVersion?: number; reason?: string; heldBy?: { sessionId: string } }
          if (details.reason === 'reserved') expect(details.heldBy?.sessionId, taskId).toBe(`session-${w.client}`)
          else expect(details).toMatchObject({ currentVersion: w.outcome.value?.version })
        }
      }
      const after = await check.counts()
      expect(after.labels - before.labels).toBe(won.length)
      expect(after.labeledTasks - before.labeledTasks).toBe(won.length)
      expect(new Set(won.map((a) => a.outcome.value?.labelId)).size).toBe(won.length)
      await check.close()

      expect(won.length).toBeGreaterThan(0)
      const perClient = Array.from({ length: CLIENTS }, (_, i) => won.filter((a) => a.client === i).length)
      console.log(
        `[team ${name}] ${CLIENTS} clients, ${seconds.toFixed(1)} s: ${attempts.length} resolves → ${won.length} labelled, ` +
          `${refused.length} conflicts (409) on ${contested} tasks (${refused.filter((a) => a.heldByOther).length} after ignoring a reservation); ` +
          `${stats.pages} page reads, ${stats.reserved} reservations, ${stats.heldByOther} held by another (${stats.skipped} skipped, ${stats.ignoredBanner} resolved anyway); ` +
          `labelled per client ${perClient.join('/')}; deferred ${before.deferred} → ${after.deferred}`
      )
    })
  })
}

const cluster = usePostgres()

defineTeamSuite('SQLite', sqliteFile('arbiter-team-'))
describeWith(POSTGRES, 'on PostgreSQL', () => defineTeamSuite('PostgreSQL', postgresDatabase(cluster)))
