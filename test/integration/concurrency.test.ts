/**
 * Two reviewers, one task: whoever writes first wins; the other gets a
 * `conflict` (HTTP 409) with a message the console can show, and the database holds exactly the
 * winner's label — never a silent overwrite. Races are real: both requests are in flight at once
 * (Promise.all), over HTTP between browser sessions, between two servers on one database file,
 * and directly on the service. console-calls.test.ts and loop.test.ts cover the sequential stale
 * resolve on the service; this file covers the races and what each side sees afterwards.
 */
import Database from 'better-sqlite3'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CallContext, QueueRow, TaskDetail } from '../../src/shared/api'
import { DEFAULT_RENDERER_DIR, startConsoleServer, type ConsoleServer } from '../../src/main/console-server'
import { dispatch } from '../../src/main/host/dispatch'
import type { WebHost } from '../../src/main/host/web'
import { createDemoDatabase } from '../../src/main/service/demo'
import { sessionHost, webClient, type CallOutcome } from '../helpers/web-client'

interface LabelRow { id: string; label: string | null; reviewer: string; sessionId: string; supersedes: string | null }
interface Resolved { labelId: string; version: number }

let dir: string
let dbLocation: string
let server: ConsoleServer
const hosts: WebHost[] = []
let db: Database.Database
/** Unlabeled tasks, each used by one test only. */
const pool: QueueRow[] = []

const take = (n: number): QueueRow[] => {
  if (pool.length < n) throw new Error('the demo has too few unlabeled tasks for this test')
  return pool.splice(0, n)
}
/** What the database holds for a task: every label row ever written, in order. */
const labelRows = (taskId: string): LabelRow[] =>
  db.prepare('SELECT id, label, reviewer, session_id AS sessionId, supersedes FROM labels WHERE task_id = ? ORDER BY rowid').all(taskId) as LabelRow[]
const resolveArgs = (row: QueueRow, label: string, expectedVersion = row.version) => ({ taskId: row.taskId, label, expectedVersion })

/** The loser's side of a race: a 409 with the conflict envelope and a sentence naming the task. */
function expectConflict(outcome: CallOutcome, taskId: string): void {
  expect(outcome.status).toBe(409)
  expect(outcome.error).toMatchObject({ code: 'conflict', message: expect.stringContaining(taskId) })
  expect(outcome.error?.message.length).toBeGreaterThan(taskId.length)
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'arbiter-race-'))
  dbLocation = join(dir, 'arbiter.db')
  await createDemoDatabase(dbLocation)
  server = await startConsoleServer({ dbLocation })
  const ctx = server.service.context()
  // No background refit: a refit is a legitimate writer too, but here every write is the test's.
  await dispatch(server.service.handlers, 'engine.updateSettings', { patch: { autoRefit: false } }, ctx)
  for (const decision of ['defer', 'act'] as const) {
    const page = await dispatch(server.service.handlers, 'queue.page', { filter: { decision }, limit: 200 }, ctx)
    if (!page.ok) throw new Error(page.error.message)
    pool.push(...(page.value as { rows: QueueRow[] }).rows.filter((r) => r.label === null && r.candidates.length >= 2))
  }
  db = new Database(dbLocation, { readonly: true })
})

afterAll(async () => {
  db?.close()
  for (const h of hosts) await h.close()
  await server?.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('two browser sessions (two reviewers) over HTTP', () => {
  let ana: ReturnType<typeof webClient>
  let bo: ReturnType<typeof webClient>
  beforeAll(async () => {
    const [a, b] = [await sessionHost(server.service, DEFAULT_RENDERER_DIR, 'ana', 'browser-ana'), await sessionHost(server.service, DEFAULT_RENDERER_DIR, 'bo', 'browser-bo')]
    hosts.push(a, b)
    ana = webClient(a)
    bo = webClient(b)
  })
  afterAll(() => {
    ana.close()
    bo.close()
  })

  it('lets exactly one of two simultaneous resolves win; the database holds only the winner’s label', async () => {
    for (const row of take(12)) {
      const [first, second] = row.candidates
      const [a, b] = await Promise.all([
        ana.call<Resolved>('labels.resolve', resolveArgs(row, first)),
        bo.call<Resolved>('labels.resolve', resolveArgs(row, second))
      ])
      expect([a.status, b.status].sort(), row.taskId).toEqual([200, 409])
      const [winner, loser, label, reviewer] = a.ok ? [a, b, first, 'ana'] : [b, a, second, 'bo']
      expectConflict(loser, row.taskId)
      expect(labelRows(row.taskId)).toEqual([
        { id: winner.value?.labelId, label, reviewer, sessionId: `browser-${reviewer}`, supersedes: null }
      ])
      expect(winner.value?.version).toBe(row.version + 1)
    }
  })

  it('refuses the loser’s retry at the old version, and lets it add its own label only after reading the winner’s', async () => {
    const [row] = take(1)
    const [first, second] = row.candidates
    const won = await ana.call<Resolved>('labels.resolve', resolveArgs(row, first))
    expect(won.status).toBe(200)
    const stale = await bo.call('labels.resolve', resolveArgs(row, second))
    expectConflict(stale, row.taskId)
    expect(stale.error?.details).toMatchObject({ currentVersion: row.version + 1 })
    expect(labelRows(row.taskId).map((l) => [l.reviewer, l.label])).toEqual([['ana', first]])

    // Bo reloads the task, sees Ana's label, and gives a second opinion: a second live label.
    const seen = await bo.call<TaskDetail>('task.detail', { taskId: row.taskId })
    expect(seen.value?.labels.map((l) => [l.reviewer, l.label])).toEqual([['ana', first]])
    const second_ = await bo.call<Resolved>('labels.resolve', resolveArgs(row, second, seen.value?.task.version))
    expect(second_.status).toBe(200)
    const rows = labelRows(row.taskId)
    expect(rows.map((l) => [l.reviewer, l.label, l.supersedes])).toEqual([['ana', first, null], ['bo', second, null]])
    const after = await ana.call<TaskDetail>('task.detail', { taskId: row.taskId })
    expect(after.value?.labels.map((l) => l.reviewer).sort()).toEqual(['ana', 'bo'])
  })

  it('keeps the winner’s label when the two race on a task one of them reserved', async () => {
    const [row] = take(1)
    expect((await ana.call('task.reserve', { taskId: row.taskId })).status).toBe(200)
    const [a, b] = await Promise.all([
      ana.call<Resolved>('labels.resolve', resolveArgs(row, row.candidates[0])),
      bo.call<Resolved>('labels.resolve', resolveArgs(row, row.candidates[1]))
    ])
    expect([a.status, b.status].sort()).toEqual([200, 409])
    const winner = a.ok ? a : b
    expect(labelRows(row.taskId).map((l) => l.id)).toEqual([winner.value?.labelId])
  })
})

describe('two servers on one database file (two connections, one reviewer name)', () => {
  let other: ConsoleServer
  beforeAll(async () => {
    other = await startConsoleServer({ dbLocation })
  })
  afterAll(async () => {
    await other.close()
  })

  it('lets exactly one win; the loser’s stale retry cannot supersede the winner’s label although both write as the same reviewer', async () => {
    const here = webClient(server.host)
    const there = webClient(other.host)
    const sessions = [server.service.context().sessionId, other.service.context().sessionId]
    expect(sessions[0]).not.toBe(sessions[1])
    try {
      for (const row of take(6)) {
        const [first, second] = row.candidates
        const [a, b] = await Promise.all([
          here.call<Resolved>('labels.resolve', resolveArgs(row, first)),
          there.call<Resolved>('labels.resolve', resolveArgs(row, second))
        ])
        expect([a.status, b.status].sort(), row.taskId).toEqual([200, 409])
        const [winner, loser, label, session, loserClient, loserLabel] = a.ok ? [a, b, first, sessions[0], there, second] : [b, a, second, sessions[1], here, first]
        expectConflict(loser, row.taskId)
        // Same reviewer name: a resolve that skipped the version check would supersede the winner's label.
        expectConflict(await loserClient.call('labels.resolve', resolveArgs(row, loserLabel)), row.taskId)
        const rows = labelRows(row.taskId)
        expect(rows).toHaveLength(1)
        expect(rows[0]).toMatchObject({ id: winner.value?.labelId, label, sessionId: session, supersedes: null })
      }
    } finally {
      here.close()
      there.close()
    }
  })
})

describe('on the service (no HTTP)', () => {
  const ctx = (i: number): CallContext => ({ ...server.service.context(), reviewer: `reviewer-${i}`, sessionId: `window-${i}` })

  it('lets one of eight simultaneous resolves win and refuses the other seven', async () => {
    const [row] = take(1)
    const outcomes = await Promise.all(
      Array.from({ length: 8 }, (_, i) => dispatch(server.service.handlers, 'labels.resolve', resolveArgs(row, row.candidates[i % row.candidates.length]), ctx(i)))
    )
    const won = outcomes.flatMap((o, i) => (o.ok ? [i] : []))
    expect(won).toHaveLength(1)
    for (const o of outcomes) if (!o.ok) expect(o.error).toMatchObject({ code: 'conflict', message: expect.stringContaining(row.taskId) })
    const w = won[0]
    expect(labelRows(row.taskId)).toEqual([
      { id: (outcomes[w] as { value: Resolved }).value.labelId, label: row.candidates[w % row.candidates.length], reviewer: `reviewer-${w}`, sessionId: `window-${w}`, supersedes: null }
    ])
  })

  it('lets one of two simultaneous undos of the same label win: the label is superseded exactly once', async () => {
    const [row] = take(1)
    const r = await dispatch(server.service.handlers, 'labels.resolve', resolveArgs(row, row.candidates[0]), ctx(0))
    if (!r.ok) throw new Error(r.error.message)
    const { labelId, version } = r.value as Resolved
    // The label's owner in two windows (only the owner may undo it).
    const owner = (i: number): CallContext => ({ ...ctx(i), reviewer: 'reviewer-0' })
    const outcomes = await Promise.all([0, 1].map((i) => dispatch(server.service.handlers, 'labels.undo', { labelId, expectedVersion: version }, owner(i))))
    expect(outcomes.filter((o) => o.ok)).toHaveLength(1)
    expect(outcomes.find((o) => !o.ok)).toMatchObject({ ok: false, error: { code: 'conflict' } })
    const rows = labelRows(row.taskId)
    expect(rows.map((l) => [l.label, l.supersedes])).toEqual([[row.candidates[0], null], [null, labelId]])
  })
})
