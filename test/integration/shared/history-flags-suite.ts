/**
 * Undo, history and flags over real HTTP (`serve --reviewer alice --reviewer bob`), on either
 * backend: history and undo follow the reviewer's login, not the tab (a new tab is a reload); undo
 * never crosses screens (Review undoes escalation labels, Calibrate random ones); an undo whose task
 * moved on since is a 409 naming the later label; a blind label given again after the reveal is
 * stored as escalation; a flag is a record, not a label, ends the flagger's hold, marks the task in
 * every queue, filters, and exports as `arbiter.flags/1`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ExportResult, FlagView, HistoryLabel, QueuePageResult, ReserveResult, ResolveResult, TaskDetail, UndoLastResult } from '../../../src/shared/api'
import { DEFAULT_RENDERER_DIR } from '../../../src/main/console-server'
import { dispatch } from '../../../src/main/host/dispatch'
import { startWebHost, type WebHost } from '../../../src/main/host/web'
import { createService, type Service } from '../../../src/main/service'
import { openStore, type Store } from '../../../src/main/store'
import { drawChosen, sessionOfTab } from '../../helpers/chosen-draw'
import type { DbLocation, MakeDbLocation } from '../../helpers/db-location'
import { rawRequest } from '../../helpers/http'
import { exampleTraces, seedTraces } from '../../helpers/seed'

interface Reply<T> {
  status: number
  value: T
  error: { code: string; message: string; details: Record<string, unknown> } | null
}

export function defineHistoryFlagsSuite(name: string, makeDbLocation: MakeDbLocation): void {
  describe(`history, undo and flags over HTTP on ${name}`, () => {
    let location: DbLocation | null = null
    let store: Store
    let service: Service
    let host: WebHost
    let ids: string[] = []

    const token = (reviewer: string) => host.logins.find((l) => l.reviewer === reviewer)?.token ?? 'none'
    async function call<T>(reviewer: string, method: string, args: unknown = {}, tab = 'tab-one-1'): Promise<Reply<T>> {
      const headers = { authorization: `Bearer ${token(reviewer)}`, 'content-type': 'application/json', 'x-arbiter-session': tab }
      const res = await rawRequest(host.port, { method: 'POST', path: `/api/${method}`, headers, body: JSON.stringify(args) })
      const body = JSON.parse(res.body) as { ok: boolean; value?: T; error?: Reply<T>['error'] }
      return { status: res.status, value: body.value as T, error: body.error ?? null }
    }
    const detail = async (reviewer: string, taskId: string) => (await call<TaskDetail>(reviewer, 'task.detail', { taskId })).value
    async function resolve(reviewer: string, taskId: string, source: 'random' | 'escalation', pick = 0, tab?: string): Promise<ResolveResult> {
      // A random label needs Calibrate's draw of its task for the session first (the server keeps its draws).
      if (source === 'random') {
        const sessionId = await sessionOfTab(store, reviewer, () => call(reviewer, 'calibrate.draw', {}, tab))
        expect(await drawChosen(store, { reviewer, sessionId, shell: 'web' }, taskId, ids)).toBe(true)
      }
      const d = await detail(reviewer, taskId)
      const r = await call<ResolveResult>(reviewer, 'labels.resolve', { taskId, label: d.task.candidates[pick], expectedVersion: d.task.version, source }, tab)
      expect(r.status, JSON.stringify(r.error)).toBe(200)
      return r.value
    }
    const history = async (reviewer: string, tab?: string) =>
      (await call<HistoryLabel[]>(reviewer, 'labels.history', { limit: 20 }, tab)).value.map((l) => [l.taskId, l.source, l.live])

    beforeAll(async () => {
      location = await makeDbLocation()
      store = await openStore(location.dbLocation)
      // Six tasks: the three example debates, twice over under other ids.
      const traces = exampleTraces()
      const all = [...traces, ...traces.map((t) => ({ ...t, task: `${t.task}-b` }))]
      ids = all.map((t) => t.task).sort()
      await seedTraces(store, all)
      service = await createService({ store, dbLocation: location.dbLocation, nativeBinding: null, shell: 'web' })
      host = await startWebHost({
        handlers: service.handlers, subscribe: service.subscribe, context: service.context, rendererDir: DEFAULT_RENDERER_DIR,
        reviewers: ['alice', 'bob']
      })
      // The operator's own setting (engine settings are an adjudicator's, and none is named yet).
      expect((await dispatch(service.handlers, 'engine.updateSettings', { patch: { autoRefit: false } }, service.context())).ok).toBe(true)
    })
    afterAll(async () => {
      await host?.close()
      await service?.close()
      await location?.cleanup()
    })

    it('keeps each reviewer’s history across tabs, and undoes per screen: Review never takes back a Calibrate label', async () => {
      await resolve('alice', ids[0], 'random')
      await resolve('alice', ids[1], 'escalation')
      await resolve('bob', ids[2], 'escalation')
      expect(await history('alice')).toEqual([[ids[1], 'escalation', true], [ids[0], 'random', true]])
      // A reload is a new tab of the same login: the same history, and the undo still works there.
      expect(await history('alice', 'tab-two-2')).toEqual(await history('alice'))
      expect(await history('bob')).toEqual([[ids[2], 'escalation', true]])

      const review = await call<UndoLastResult>('alice', 'labels.undoLast', { source: 'escalation' }, 'tab-two-2')
      expect(review.status).toBe(200)
      expect(review.value.undone).toMatchObject({ taskId: ids[1], source: 'escalation' })
      // Review has nothing left to undo: alice's Calibrate label is not Review's.
      expect((await call<UndoLastResult>('alice', 'labels.undoLast', { source: 'escalation' })).value).toEqual({ undone: null })
      expect((await detail('alice', ids[0])).labels.map((l) => l.reviewer)).toEqual(['alice'])
      // Nor is a blind label undone from Calibrate: its task stays in the calibration set, and its
      // labeler replaces it on the same draw instead.
      const calibrate = await call<UndoLastResult>('alice', 'labels.undoLast', { source: 'random' })
      expect(calibrate).toMatchObject({ status: 409, error: { code: 'conflict', details: { taskId: ids[0], reason: 'blind-label' } } })
      expect(await history('alice')).toEqual([[ids[1], 'escalation', false], [ids[0], 'random', true]])
      expect((await detail('bob', ids[2])).labels.map((l) => l.reviewer)).toEqual(['bob'])
    })

    it('refuses to undo a label whose task moved on since (another reviewer labeled it): 409, nothing written', async () => {
      await resolve('alice', ids[3], 'escalation', 0)
      await resolve('bob', ids[3], 'escalation', 1)
      const [mine] = (await call<HistoryLabel[]>('alice', 'labels.history', { source: 'escalation', limit: 1 })).value
      expect(mine.movedOn).toMatchObject({ reviewer: 'bob', adjudicated: false })
      const version = (await detail('alice', ids[3])).task.version
      const undo = await call<UndoLastResult>('alice', 'labels.undoLast', { source: 'escalation' })
      expect(undo.status).toBe(409)
      expect(undo.error).toMatchObject({ code: 'conflict', details: { reason: 'moved_on', movedOn: { reviewer: 'bob' } } })
      expect((await detail('alice', ids[3])).task.version).toBe(version)
      expect((await detail('alice', ids[3])).labels.map((l) => l.reviewer)).toEqual(['alice', 'bob'])
    })

    it('keeps a blind label changed on its own draw blind: the labeler’s replacement, not an escalation', async () => {
      expect((await resolve('alice', ids[4], 'random')).source).toBe('random')
      // The labeler's change of mind on the same draw replaces the blind label and stays blind.
      const d = await detail('alice', ids[4])
      const again = await call<ResolveResult>('alice', 'labels.resolve', { taskId: ids[4], label: d.task.candidates[1], expectedVersion: d.task.version, source: 'random' })
      expect(again.value.source).toBe('random')
      expect((await detail('alice', ids[4])).labels.map((l) => [l.reviewer, l.source, l.label])).toEqual([['alice', 'random', d.task.candidates[1]]])
    })

    it('records a flag with its reason, hands the task back, keeps it in every queue marked, filters and exports it', async () => {
      const task = ids[5]
      expect((await call<ReserveResult>('alice', 'task.reserve', { taskId: task })).value.mine?.reviewer).toBe('alice')
      const queueOf = async (reviewer: string, flagged: boolean | null) =>
        (await call<QueuePageResult>(reviewer, 'queue.page', { filter: { decision: null, flagged }, sort: 'age' })).value.rows.map((r) => [r.taskId, r.flags])
      expect((await queueOf('bob', null)).map(([id]) => id)).not.toContain(task)

      const empty = await call('alice', 'flags.add', { taskId: task, reason: '   ' })
      expect(empty.status).toBe(400)
      expect(empty.error?.code).toBe('bad_input')
      const flag = await call<FlagView>('alice', 'flags.add', { taskId: task, reason: 'the question has two readings' })
      expect(flag.status).toBe(200)
      expect(flag.value).toMatchObject({ taskId: task, reviewer: 'alice', reason: 'the question has two readings' })
      // Not a label; the hold is gone, so bob's queue has it again, marked.
      const d = await detail('bob', task)
      expect([d.labels, d.reservation, d.flags.map((f) => [f.reviewer, f.reason])]).toEqual([[], null, [['alice', 'the question has two readings']]])
      expect(await queueOf('bob', null)).toContainEqual([task, 1])
      expect(await queueOf('bob', true)).toEqual([[task, 1]])
      expect((await queueOf('bob', false)).map(([id]) => id)).not.toContain(task)

      const out = await call<ExportResult>('bob', 'export.run', { what: 'flags', format: 'jsonl' })
      expect(out.value).toMatchObject({ what: 'flags', rows: 1, fileName: 'arbiter-flags.jsonl' })
      expect(JSON.parse(out.value.content!.trim())).toEqual({ task, reviewer: 'alice', reason: 'the question has two readings', at: flag.value.at })
      const csv = await call<ExportResult>('bob', 'export.run', { what: 'flags', format: 'csv' })
      expect(csv.value.content).toBe(`task,reviewer,reason,at\n${task},alice,the question has two readings,${flag.value.at}\n`)
    })
  })
}
