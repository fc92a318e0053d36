/**
 * Load on the loopback web host: 20 reviewers, each in its own browser
 * session, page the queue and resolve tasks over HTTP for a bounded time (30 s; ARBITER_LOAD_SECONDS
 * may lower it) while background refits land. Asserted: no HTTP error (a 409 on a contested task
 * is an expected outcome, counted apart), and every label acknowledged to a client is in the
 * database exactly once, live, as that reviewer's — none lost, duplicated or superseded. Latency
 * per call kind is printed, never asserted (the machine is shared).
 *
 * One web host is one session (it takes its context from its process), so client 0 uses the
 * console server's own host and clients 1..19 each get a host over the same service with their
 * own reviewer and session — the requests are the renderer's, through the real host.
 */
import Database from 'better-sqlite3'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { QueuePageResult, ReserveResult, TaskDetail } from '../../src/shared/api'
import { DEFAULT_RENDERER_DIR, startConsoleServer, type ConsoleServer } from '../../src/main/console-server'
import type { WebHost } from '../../src/main/host/web'
import { createDemoDatabase } from '../../src/main/service/demo'
import { sessionHost, webClient, type CallOutcome } from '../helpers/web-client'
import { createRng } from '../../src/main/sim'
import { reportSuite } from './report'

const CLIENTS = 20
const requested = Number(process.env.ARBITER_LOAD_SECONDS)
const SECONDS = Number.isFinite(requested) && requested > 0 ? Math.min(requested, 30) : 30
const PAGE = 50
const KINDS = ['queue.page', 'task.detail', 'task.reserve', 'task.release', 'labels.resolve'] as const
type Kind = (typeof KINDS)[number]

interface Ack { labelId: string; taskId: string; label: string; reviewer: string; sessionId: string }
interface Tally { acks: Ack[]; conflicts: number; held: number; errors: string[]; latency: Record<Kind, number[]> }

let dir: string
let dbLocation: string
let server: ConsoleServer
const hosts: WebHost[] = []
let refits = 0

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'arbiter-load-'))
  dbLocation = join(dir, 'arbiter.db')
  await createDemoDatabase(dbLocation) // fitted and decided; auto-refit stays on, as in the app
  server = await startConsoleServer({ dbLocation })
  server.service.subscribe((e) => void (e.type === 'fit-landed' && refits++))
  for (let i = 1; i < CLIENTS; i++) hosts.push(await sessionHost(server.service, DEFAULT_RENDERER_DIR, `load-${i}`, `load-session-${i}`))
})

afterAll(async () => {
  for (const h of hosts) await h.close()
  await server?.close()
  rmSync(dir, { recursive: true, force: true })
})

/**
 * One reviewer: page a queue (mostly the deferred one, sometimes acted or already-labeled tasks
 * for a spot check or second opinion), open a task it has not labeled, reserve it, resolve it at
 * the version it read. A 409 means someone else got there first: release and move on, never retry
 * (a retry at a fresh version would be a new decision, not this one).
 */
async function reviewer(host: Pick<WebHost, 'port' | 'token'>, who: { reviewer: string; sessionId: string }, seed: number, until: number, tally: Tally) {
  const client = webClient(host)
  const rng = createRng(seed)
  const random = rng.next
  const pick = rng.pick
  const mine = new Set<string>()
  const totals: Record<string, number> = { defer: PAGE, act: PAGE, human: PAGE }
  const timed = async <T>(kind: Kind, args: unknown, expected: number[] = [200]): Promise<CallOutcome<T> | null> => {
    let out: CallOutcome<T>
    try {
      out = await client.call<T>(kind, args)
    } catch (e) {
      tally.errors.push(`${kind}: ${String(e)}`)
      return null
    }
    tally.latency[kind].push(out.ms)
    if (!expected.includes(out.status)) {
      tally.errors.push(`${kind} → ${out.status} ${JSON.stringify(out.error)}`)
      return null
    }
    return out
  }
  try {
    while (performance.now() < until) {
      const decision = pick(['defer', 'defer', 'act', 'human'] as const)
      const offset = Math.floor(random() * Math.max(1, totals[decision] - PAGE + 1))
      const page = await timed<QueuePageResult>('queue.page', { filter: { decision }, offset, limit: PAGE })
      if (!page?.value) continue
      totals[decision] = page.value.total
      const open = page.value.rows.filter((r) => !mine.has(r.taskId))
      if (open.length === 0) continue
      const row = pick(open)
      const detail = await timed<TaskDetail>('task.detail', { taskId: row.taskId })
      if (!detail?.value) continue
      if (detail.value.labels.some((l) => l.reviewer === who.reviewer)) {
        mine.add(row.taskId)
        continue
      }
      const reserved = await timed<ReserveResult>('task.reserve', { taskId: row.taskId })
      if (!reserved?.value) continue
      if (reserved.value.mine === null) {
        tally.held++ // another session holds it: the console says so; this reviewer picks another
        continue
      }
      const label = pick(detail.value.task.candidates)
      const resolved = await timed<{ labelId: string }>('labels.resolve', { taskId: row.taskId, label, expectedVersion: detail.value.task.version }, [200, 409])
      if (!resolved) continue
      if (resolved.status === 409) {
        tally.conflicts++
        if (resolved.error?.code !== 'conflict') tally.errors.push(`409 without the conflict code: ${JSON.stringify(resolved.error)}`)
        await timed('task.release', { taskId: row.taskId })
        continue
      }
      mine.add(row.taskId)
      tally.acks.push({ labelId: (resolved.value as { labelId: string }).labelId, taskId: row.taskId, label, ...who })
    }
  } finally {
    client.close()
  }
}

/**
 * The background refit is debounced (it waits for a quiet spell that a busy team never leaves), so
 * a lead asks for one a third of the way in: a worker thread then writes a fit and its decisions
 * through its own connection while the reviewers write labels.
 */
async function refitMidway(until: number, tally: Tally): Promise<void> {
  await new Promise((r) => setTimeout(r, (until - performance.now()) / 3))
  const client = webClient(server.host)
  try {
    const out = await client.call('fits.run', {})
    if (out.status !== 200) tally.errors.push(`fits.run → ${out.status} ${JSON.stringify(out.error)}`)
  } catch (e) {
    tally.errors.push(`fits.run: ${String(e)}`)
  } finally {
    client.close()
  }
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]
}

describe(`web host under load: ${CLIENTS} reviewers for ${SECONDS} s`, () => {
  it('answers every call, and stores every acknowledged label exactly once', async () => {
    const t0 = performance.now()
    const tally: Tally = { acks: [], conflicts: 0, held: 0, errors: [], latency: Object.fromEntries(KINDS.map((k) => [k, []])) as unknown as Record<Kind, number[]> }
    const own = server.service.context()
    const clients = [
      { host: server.host, who: { reviewer: own.reviewer, sessionId: own.sessionId } },
      ...hosts.map((h, i) => ({ host: h, who: { reviewer: `load-${i + 1}`, sessionId: `load-session-${i + 1}` } }))
    ]
    const until = performance.now() + SECONDS * 1000
    await Promise.all([...clients.map((c, i) => reviewer(c.host, c.who, 7 + i, until, tally)), refitMidway(until, tally)])
    const ran = (performance.now() - t0) / 1000

    // Close first: pending refits finish and every connection is gone, so the file is what remains.
    for (const h of hosts.splice(0)) await h.close()
    await server.close()
    const db = new Database(dbLocation, { readonly: true })
    try {
      expect(tally.errors.slice(0, 5)).toEqual([])
      expect(tally.acks.length).toBeGreaterThan(0)
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok')
      const sessions = clients.map((c) => c.who.sessionId)
      const written = db
        .prepare(`SELECT id AS labelId, task_id AS taskId, label, reviewer, session_id AS sessionId, supersedes FROM labels WHERE session_id IN (${sessions.map(() => '?').join(', ')})`)
        .all(...sessions) as (Ack & { supersedes: string | null })[]
      // Exactly the acknowledged labels: none lost, none written twice, none from a refused call.
      const byId = new Map(written.map((r) => [r.labelId, r]))
      expect(written).toHaveLength(tally.acks.length)
      for (const a of tally.acks) {
        expect(byId.get(a.labelId), a.labelId).toMatchObject({ taskId: a.taskId, label: a.label, reviewer: a.reviewer, sessionId: a.sessionId, supersedes: null })
      }
      // Still live: no label of the run was superseded, and no reviewer labeled a task twice.
      const superseding = db.prepare('SELECT COUNT(*) AS n FROM labels WHERE supersedes = ?')
      expect(tally.acks.filter((a) => (superseding.get(a.labelId) as { n: number }).n > 0)).toEqual([])
      expect(new Set(tally.acks.map((a) => `${a.taskId}\u0000${a.reviewer}`)).size).toBe(tally.acks.length)
    } finally {
      db.close()
    }

    const requests = KINDS.reduce((n, k) => n + tally.latency[k].length, 0)
    const figures: Record<string, string | number> = {
      clients: CLIENTS, seconds: ran.toFixed(1), requests, 'req/s': (requests / ran).toFixed(0), resolved: tally.acks.length,
      conflicts: tally.conflicts, 'held by another': tally.held, errors: tally.errors.length, refits
    }
    for (const k of KINDS) {
      const xs = [...tally.latency[k]].sort((a, b) => a - b)
      figures[`${k} n/p50/p95/p99 ms`] = `${xs.length}/${[50, 95, 99].map((p) => percentile(xs, p).toFixed(1)).join('/')}`
    }
    reportSuite('web-load', t0, figures)
  })
})
