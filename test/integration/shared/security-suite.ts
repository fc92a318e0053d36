/**
 * One reviewer against another, attacked over real HTTP on either backend: `serve --reviewer alice --reviewer bob
 * --reviewer carol` (carol the team's adjudicator), each call with its login's token. A login acts
 * only as itself — a label file naming alice, uploaded by bob, is refused, and his own is recorded
 * as his, respecting alice's hold and superseding his earlier label, audited per label; only the
 * owner undoes a label, only an adjudicator a ruling; with N = 2 neither an export nor a queue
 * filter tells bob what alice answered blind; `random` needs the server's own draw; a session holds
 * at most two tasks without breaking the next-task flow, a login at most a few whatever session ids it invents; an adjudicator releases a hold. Each case
 * starts from a fresh database.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { AuditEntryView, ExportResult, ImportSummary, QueuePageResult, ReserveResult, TaskDetail } from '../../../src/shared/api'
import { UPLOAD_HEADER, uploadHeaderValue, type UploadSlice } from '../../../src/shared/contract/upload'
import { DEFAULT_RENDERER_DIR } from '../../../src/main/console-server'
import { dispatch } from '../../../src/main/host/dispatch'
import { startWebHost, type WebHost } from '../../../src/main/host/web'
import { createService, type Service } from '../../../src/main/service'
import { openStore, type Store } from '../../../src/main/store'
import { drawChosen, sessionOfTab } from '../../helpers/chosen-draw'
import type { DbLocation, MakeDbLocation } from '../../helpers/db-location'
import { rawRequest } from '../../helpers/http'
import { exampleTraces, seedTraces } from '../../helpers/seed'
import { MAX_HOLDS_PER_REVIEWER } from '../../../src/main/store/reservation-rules'

const MIN = 60_000
const ALL = { decision: null }
/** The example council's tasks (resources/examples/council.trace.jsonl), in id order. */
const TASKS = ['medclaim-0001', 'medclaim-0002', 'trivia-0001']

interface Reply<T> {
  status: number
  value: T
  error: { code: string; message: string; details: Record<string, unknown> } | null
}

const labelLine = (task: string, label: string, reviewer: string, source = 'escalation'): string =>
  JSON.stringify({ format: 'arbiter.labels/1', task, label, source, reviewer, at: '2020-01-01T00:00:00Z', note: 'set by the file' })

export function defineSecuritySuite(name: string, makeDbLocation: MakeDbLocation): void {
  describe(`what each login may do, over per-reviewer logins on ${name}`, () => {
    let location: DbLocation | null = null
    let store: Store
    let service: Service
    let host: WebHost
    let clock = Date.parse('2026-03-02T09:00:00.000Z')

    const token = (reviewer: string) => host.logins.find((l) => l.reviewer === reviewer)?.token ?? 'none'
    async function call<T>(reviewer: string, method: string, args: unknown = {}, tab?: string): Promise<Reply<T>> {
      const headers: Record<string, string> = { authorization: `Bearer ${token(reviewer)}`, 'content-type': 'application/json' }
      if (tab !== undefined) headers['x-arbiter-session'] = tab
      const res = await rawRequest(host.port, { method: 'POST', path: `/api/${method}`, headers, body: JSON.stringify(args) })
      const body = JSON.parse(res.body) as { ok: boolean; value?: T; error?: Reply<T>['error'] }
      return { status: res.status, value: body.value as T, error: body.error ?? null }
    }
    /** One slice of an upload, as the browser console sends it: the bytes as the body, the rest in a header. */
    async function uploadSlice<T>(reviewer: string, slice: UploadSlice, text: string): Promise<Reply<T>> {
      const headers = { authorization: `Bearer ${token(reviewer)}`, 'content-type': 'application/octet-stream', [UPLOAD_HEADER]: uploadHeaderValue(slice) }
      const res = await rawRequest(host.port, { method: 'POST', path: '/api/imports.upload', headers, body: Buffer.from(text) })
      const body = JSON.parse(res.body) as { ok: boolean; value?: T; error?: Reply<T>['error'] }
      return { status: res.status, value: body.value as T, error: body.error ?? null }
    }
    const version = async (reviewer: string, taskId: string) => (await call<TaskDetail>(reviewer, 'task.detail', { taskId })).value.task.version
    const resolve = async (reviewer: string, taskId: string, label: string, source: 'random' | 'escalation' = 'escalation', tab?: string) =>
      call<{ labelId: string; version: number }>(reviewer, 'labels.resolve', { taskId, label, expectedVersion: await version(reviewer, taskId), source }, tab)
    /** Calibrate's draw of `taskId` for `reviewer`'s tab (the server's draw rule, every other task left out). */
    const draw = async (reviewer: string, taskId: string, tab?: string) =>
      (await drawChosen(store, { reviewer, sessionId: await sessionOfTab(store, reviewer, () => call(reviewer, 'calibrate.draw', {}, tab)), shell: 'web' }, taskId, TASKS))
        ? taskId
        : null
    const importLabels = async (reviewer: string, lines: string[]) => {
      const up = await uploadSlice<{ uploadId: string }>(reviewer, { uploadId: null, fileName: 'mine.labels.jsonl', offset: 0 }, `${lines.join('\n')}\n`)
      expect(up.status).toBe(200)
      return call<ImportSummary>(reviewer, 'imports.run', { source: { kind: 'upload', uploadId: up.value.uploadId }, kind: 'labels' })
    }
    const live = async (taskId: string) => (await store.liveLabels(taskId)).map((l) => [l.reviewer, l.label])
    const team = (patch: object) => call('carol', 'team.updateSettings', { patch })

    beforeEach(async () => {
      // Now: an import's worker thread reads holds on its own connection, by the real clock.
      clock = Date.now()
      location = await makeDbLocation()
      store = await openStore(location.dbLocation, { now: () => new Date(clock) })
      await seedTraces(store, exampleTraces())
      service = await createService({ store, dbLocation: location.dbLocation, nativeBinding: null, shell: 'web' })
      host = await startWebHost({
        handlers: service.handlers, subscribe: service.subscribe, context: service.context, rendererDir: DEFAULT_RENDERER_DIR,
        reviewers: ['alice', 'bob', 'carol']
      })
      // The operator's own setting (engine settings are an adjudicator's, and none is named yet).
      expect((await dispatch(service.handlers, 'engine.updateSettings', { patch: { autoRefit: false } }, service.context())).ok).toBe(true)
      // With per-reviewer logins nobody adjudicates until named: the operator (the CLI) names carol.
      const named = await dispatch(service.handlers, 'team.updateSettings', { patch: { adjudicators: ['carol'] } }, { ...service.context(), shell: 'cli' })
      expect(named.ok).toBe(true)
    })
    afterEach(async () => {
      await host?.close()
      await service?.close()
      await location?.cleanup()
    })

    it('refuses a label file forging another reviewer or a blind draw; records the caller’s own as a resolve would, audited per label', async () => {
      const forged = await importLabels('bob', [labelLine('medclaim-0001', 'true', 'bob'), labelLine('medclaim-0002', 'false', 'alice')])
      expect(forged.value).toMatchObject({ status: 'rejected', labels: 0, errors: [{ line: 2, task: 'medclaim-0002', rule: 'not-your-label', message: expect.stringContaining('alice') }] })
      const random = await importLabels('bob', [labelLine('medclaim-0001', 'true', 'bob', 'random')])
      expect(random.value).toMatchObject({ status: 'rejected', errors: [{ line: 1, rule: 'random-needs-draw' }] })
      for (const t of TASKS) expect(await live(t)).toEqual([])

      // Alice's hold refuses bob's file as it refuses his resolve: 409 naming her, nothing written.
      expect((await call<ReserveResult>('alice', 'task.reserve', { taskId: 'medclaim-0002' })).value.mine?.reviewer).toBe('alice')
      const held = await importLabels('bob', [labelLine('medclaim-0001', 'true', 'bob'), labelLine('medclaim-0002', 'false', 'bob')])
      expect(held).toMatchObject({ status: 409, error: { code: 'conflict', details: { taskId: 'medclaim-0002', heldBy: { reviewer: 'alice' } } } })
      expect(await live('medclaim-0001')).toEqual([])
      await call('alice', 'task.release', { taskId: 'medclaim-0002' })

      // His own file after his own resolve: one live label of his per task, each audited as his.
      expect((await resolve('bob', 'medclaim-0001', 'false')).status).toBe(200)
      const own = await importLabels('bob', [labelLine('medclaim-0001', 'true', 'bob'), labelLine('medclaim-0002', 'false', 'bob')])
      expect(own.value).toMatchObject({ status: 'imported', labels: 2 })
      expect(await live('medclaim-0001')).toEqual([['bob', 'true']])
      expect(await live('medclaim-0002')).toEqual([['bob', 'false']])
      const audit = (await call<AuditEntryView[]>('alice', 'audit.tail', { limit: 3 })).value
      expect(audit.map((a) => [a.action, a.reviewer, a.target])).toEqual([
        ['label.import', 'bob', 'medclaim-0001'], ['label.import', 'bob', 'medclaim-0002'], ['labels.import', 'bob', own.value.importId]
      ])
    })

    it('takes no random label from the desktop app’s import either (no login: the file’s reviewers as written); the CLI may', async () => {
      const run = async (shell: 'electron' | 'cli', lines: string[]) => {
        const ctx = { ...service.context(), shell }
        const up = await dispatch(service.handlers, 'imports.upload', { uploadId: null, fileName: 'old.labels.jsonl', offset: 0, chunk: Buffer.from(`${lines.join('\n')}\n`) }, ctx)
        if (!up.ok) throw new Error(up.error.message)
        const r = await dispatch(service.handlers, 'imports.run', { source: { kind: 'upload', uploadId: (up.value as { uploadId: string }).uploadId }, kind: 'labels' }, ctx)
        if (!r.ok) throw new Error(r.error.message)
        return r.value as ImportSummary
      }
      const random = [labelLine('medclaim-0001', 'true', 'dee', 'random')]
      expect(await run('electron', random)).toMatchObject({ status: 'rejected', errors: [{ line: 1, rule: 'random-needs-draw' }] })
      expect(await run('electron', [labelLine('medclaim-0002', 'false', 'dee')])).toMatchObject({ status: 'imported', labels: 1 })
      expect(await run('cli', random)).toMatchObject({ status: 'imported', labels: 1 })
      expect([await live('medclaim-0001'), await live('medclaim-0002')]).toEqual([[['dee', 'true']], [['dee', 'false']]])
    })

    it('lets only the owner undo a label, and only an adjudicator a ruling', async () => {
      const alices = (await resolve('alice', 'trivia-0001', 'Jupiter')).value.labelId
      const bobs = await call('bob', 'labels.undo', { labelId: alices, expectedVersion: await version('bob', 'trivia-0001') })
      expect(bobs).toMatchObject({ status: 401, error: { code: 'unauthorized', message: expect.stringContaining('alice') } })
      expect(await live('trivia-0001')).toEqual([['alice', 'Jupiter']])
      expect((await call('alice', 'labels.undo', { labelId: alices, expectedVersion: await version('alice', 'trivia-0001') }, 'other-tab')).status).toBe(200)

      // A disagreement (N = 2), carol's ruling: alice may not undo it, carol may.
      await team({ reviewersPerTask: 2 })
      await resolve('alice', 'medclaim-0001', 'true')
      await resolve('bob', 'medclaim-0001', 'false')
      const ruling = await call<{ labelId: string }>('carol', 'adjudicate.resolve', { taskId: 'medclaim-0001', label: 'false', expectedVersion: await version('carol', 'medclaim-0001') })
      expect(ruling.status).toBe(200)
      const undo = async (reviewer: string) => call(reviewer, 'labels.undo', { labelId: ruling.value.labelId, expectedVersion: await version(reviewer, 'medclaim-0001') })
      expect(await undo('alice')).toMatchObject({ status: 401, error: { message: expect.stringContaining('adjudicator') } })
      expect((await undo('carol')).status).toBe(200)
      // Nor may alice name herself an adjudicator: once the setting names them, only they change it.
      expect(await call('alice', 'team.updateSettings', { patch: { adjudicators: ['alice'] } })).toMatchObject({ status: 401, error: { code: 'unauthorized' } })
      expect((await call('alice', 'team.getSettings')).value).toEqual({ reviewersPerTask: 2, adjudicators: ['carol'] })
    })

    it('keeps others’ labels sealed (N = 2) in exports, label-based queue filters and the audit log', async () => {
      await team({ reviewersPerTask: 2 })
      // Alice answers medclaim-0001 blind, against the engine's answer (the example's gold is true).
      expect(await draw('alice', 'medclaim-0001')).toBe('medclaim-0001')
      const alices = await resolve('alice', 'medclaim-0001', 'false', 'random')
      expect(alices.status).toBe(200)

      const exported = async (reviewer: string, what: 'labels' | 'decisions') =>
        (await call<ExportResult>(reviewer, 'export.run', { what, filter: ALL })).value.content?.trim().split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as Record<string, unknown>) ?? []
      expect((await exported('alice', 'labels')).map((l) => [l.task, l.reviewer, l.label])).toEqual([['medclaim-0001', 'alice', 'false']])
      expect(await exported('bob', 'labels')).toEqual([])
      const bobsRow = (await exported('bob', 'decisions')).find((r) => r.task === 'medclaim-0001')
      expect(bobsRow).toMatchObject({ label: null, reviewer: null, labelSource: null, answer: null })
      expect(JSON.stringify(await exported('bob', 'decisions'))).not.toContain('alice')

      const total = async (reviewer: string, filter: object) => (await call<QueuePageResult>(reviewer, 'queue.page', { filter: { ...ALL, ...filter } })).value.total
      expect(await total('alice', { candidate: 'false' })).toBe(1)
      expect(await total('alice', { candidate: 'true' })).toBe(0)
      expect([await total('bob', { candidate: 'false' }), await total('bob', { candidate: 'true' })]).toEqual([0, 0])
      expect(await total('bob', { labelSource: 'random' })).toBe(0)
      expect((await call<ExportResult>('bob', 'export.run', { what: 'labels', filter: { ...ALL, candidate: 'false' } })).value.rows).toBe(0)

      // The audit log names alice's act, not her label nor its id (an id is what an undo takes).
      const row = (await call<AuditEntryView[]>('bob', 'audit.tail', { limit: 5 })).value.find((a) => a.action === 'label.record')
      expect(row).toMatchObject({ reviewer: 'alice', target: 'medclaim-0001' })
      for (const k of ['label', 'labelId', 'supersedes']) expect(row?.details).not.toHaveProperty(k)
      expect((await call<AuditEntryView[]>('alice', 'audit.tail', { limit: 5 })).value.find((a) => a.action === 'label.record')?.details).toMatchObject({ labelId: alices.value.labelId })

      // Bob commits his own: now both see both, in the export too.
      expect(await draw('bob', 'medclaim-0001')).toBe('medclaim-0001')
      await resolve('bob', 'medclaim-0001', 'true', 'random')
      expect((await exported('bob', 'labels')).map((l) => l.reviewer)).toEqual(['alice', 'bob'])
    })

    it('takes a random label only for a task Calibrate drew for that session', async () => {
      const notDrawn = await resolve('alice', 'medclaim-0002', 'false', 'random')
      expect(notDrawn).toMatchObject({ status: 401, error: { code: 'unauthorized', details: { taskId: 'medclaim-0002', reason: 'not-drawn' } } })
      expect(await draw('alice', 'medclaim-0002', 'alice-tab-1')).toBe('medclaim-0002')
      // Drawn for alice's other tab, or for alice, is not drawn for bob or for another tab.
      expect((await resolve('bob', 'medclaim-0002', 'false', 'random')).status).toBe(401)
      expect((await resolve('alice', 'medclaim-0002', 'false', 'random', 'alice-tab-2')).status).toBe(401)
      expect(await live('medclaim-0002')).toEqual([])
      expect((await resolve('alice', 'medclaim-0002', 'false', 'random', 'alice-tab-1')).status).toBe(200)
      expect((await store.liveLabels('medclaim-0002')).map((l) => l.source)).toEqual(['random'])
      // An escalation from the queue needs no draw.
      expect((await resolve('bob', 'trivia-0001', 'Jupiter')).status).toBe(200)
    })

    it('caps a session at two holds without breaking "next", and lets only an adjudicator release another’s', async () => {
      const reserve = async (taskId: string, reviewer = 'alice', tab = 'alice-tab-a') => (await call<ReserveResult>(reviewer, 'task.reserve', { taskId }, tab)).value
      const holder = async (taskId: string) => (await store.taskDetail(taskId)).reservation?.reviewer ?? null
      // The console's flow: open a task, "next" claims the following one, label, move on (renewal).
      expect((await reserve(TASKS[0])).mine?.taskId).toBe(TASKS[0])
      expect((await reserve(TASKS[1])).mine?.taskId).toBe(TASKS[1])
      expect((await resolve('alice', TASKS[0], 'true', 'escalation', 'alice-tab-a')).status).toBe(200)
      clock += MIN
      expect((await reserve(TASKS[1])).mine?.taskId).toBe(TASKS[1])
      expect((await reserve(TASKS[2])).mine?.taskId).toBe(TASKS[2])
      expect([await holder(TASKS[1]), await holder(TASKS[2])]).toEqual(['alice', 'alice'])

      // A third hold of the same tab ends its least recently renewed one; bob's queue gets it back.
      clock += MIN
      await reserve(TASKS[2])
      const third = await call<ReserveResult>('alice', 'task.reserve', { taskId: TASKS[0] }, 'alice-tab-a')
      expect(third.value.mine?.taskId).toBe(TASKS[0])
      expect([await holder(TASKS[0]), await holder(TASKS[1]), await holder(TASKS[2])]).toEqual(['alice', null, 'alice'])

      // Bob may not end alice's hold; carol (the adjudicator) may.
      expect(await call('bob', 'task.releaseHold', { taskId: TASKS[2] })).toMatchObject({ status: 401, error: { code: 'unauthorized' } })
      expect(await holder(TASKS[2])).toBe('alice')
      const released = await call<{ released: { reviewer: string } | null }>('carol', 'task.releaseHold', { taskId: TASKS[2] })
      expect(released).toMatchObject({ status: 200, value: { released: { reviewer: 'alice' } } })
      expect(await holder(TASKS[2])).toBeNull()
      expect((await resolve('bob', TASKS[2], 'Jupiter')).status).toBe(200)
      expect((await call<{ released: unknown }>('carol', 'task.releaseHold', { taskId: TASKS[2] })).value).toEqual({ released: null })
    })

    it('caps a login’s holds, whatever session ids it makes up: the rest of the queue stays the team’s', async () => {
      // More tasks than any cap: copies of the example council under new ids, all open.
      const copies = Array.from({ length: 8 }, (_, i) => exampleTraces().map((t) => ({ ...t, task: `${t.task}-copy-${i}` }))).flat()
      await seedTraces(store, copies, 'copies.trace.jsonl')
      const all = [...TASKS, ...copies.map((t) => t.task)]
      // Bob reserves every task, each from a tab id of his own invention.
      for (const [i, taskId] of all.entries()) {
        const r = await call<ReserveResult>('bob', 'task.reserve', { taskId }, `made-up-tab-${String(i).padStart(4, '0')}`)
        expect(r.status, taskId).toBe(200)
      }
      const holders = await Promise.all(all.map(async (t) => (await store.taskDetail(t)).reservation?.reviewer ?? null))
      const bobs = holders.filter((h) => h === 'bob').length
      expect(bobs).toBeGreaterThan(0)
      expect(bobs).toBeLessThanOrEqual(MAX_HOLDS_PER_REVIEWER)
      // Alice's queue still offers every task bob does not hold.
      expect((await call<QueuePageResult>('alice', 'queue.page', { filter: ALL })).value.total).toBe(all.length - bobs)
      // The releases are audited as the cap's, naming the session that lost each hold.
      const capped = (await store.auditTail(500)).filter((a) => a.action === 'task.release' && a.details.reason === 'hold-cap')
      expect(capped).toHaveLength(all.length - bobs)
      expect(capped.every((a) => a.reviewer === 'bob' && typeof a.details.sessionId === 'string')).toBe(true)
    })
  })
}
