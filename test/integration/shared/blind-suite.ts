/**
 * Blind stays blind through every side door, through the service's contract calls on either backend
 * (blind.test.ts runs it on both): with N = 2 a blind label is told by no flags export filter, no
 * flag reason in an export or the audit log; it enters fits, audits and agreement only once every
 * reviewer owed on its task has labeled it; and a task Calibrate drew for a login shows that login
 * no verdict — detail, queue row, queue filters, decisions export — until its label is committed.
 * Each case starts from a fresh database with one fit.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { AuditEntryView, AuditSummary, CallContext, ExportResult, FitSummary, QueuePageResult, QueueRow, ResolveResult, TaskDetail } from '../../../src/shared/api'
import { dispatch } from '../../../src/main/host/dispatch'
import { createService, type Service } from '../../../src/main/service'
import { cleanCouncil } from '../../../src/main/sim'
import { openStore, type Store } from '../../../src/main/store'
import { actorOf } from '../../../src/main/service/core'
import { drawChosen } from '../../helpers/chosen-draw'
import type { DbLocation, MakeDbLocation } from '../../helpers/db-location'
import { seedTraces } from '../../helpers/seed'

const TASKS = 8
const ALL = { decision: null, group: null, seat: null, candidate: null, labelSource: null, spotCheck: null, search: null }

export function defineBlindSuite(name: string, makeDbLocation: MakeDbLocation): void {
  describe(`blind through every side door on ${name}`, () => {
    let location: DbLocation | null = null
    let service: Service
    let store: Store
    let ids: string[] = []
    const as = (reviewer: string): CallContext => ({ ...service.context(), reviewer, sessionId: `window-${reviewer}` })
    let alice: CallContext
    let bob: CallContext
    let carol: CallContext

    const call = async <T = unknown>(method: string, args: unknown, ctx: CallContext): Promise<T> => {
      const env = await dispatch(service.handlers, method, args, ctx)
      if (!env.ok) throw Object.assign(new Error(env.error.message), env.error)
      return env.value as T
    }
    const detail = (taskId: string, ctx: CallContext, blind = false) => call<TaskDetail>('task.detail', { taskId, blind }, ctx)
    /** Calibrate's draw of `only` for `ctx` (the server's draw rule, every other task left out). */
    const drawOnly = async (only: string, ctx: CallContext) => {
      expect(await drawChosen(store, actorOf(ctx), only, ids)).toBe(true)
    }
    const blindLabel = async (taskId: string, label: string, ctx: CallContext) => {
      const version = (await detail(taskId, ctx, true)).task.version
      return call<ResolveResult>('labels.resolve', { taskId, label, expectedVersion: version, source: 'random' }, ctx)
    }
    const exported = async (what: 'decisions' | 'flags', filter: object, ctx: CallContext) => {
      const r = await call<ExportResult>('export.run', { what, filter: { ...ALL, ...filter } }, ctx)
      return (r.content ?? '').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as Record<string, unknown>)
    }
    const queueRow = async (taskId: string, ctx: CallContext): Promise<QueueRow | undefined> =>
      (await call<QueuePageResult>('queue.page', { filter: ALL, limit: 500 }, ctx)).rows.find((r) => r.taskId === taskId)
    const team = (patch: object) => call('team.updateSettings', { patch }, carol)
    const fitNow = () => call<FitSummary>('fits.run', {}, carol)
    const audit = () => call<AuditSummary>('audit.summary', {}, carol)

    beforeEach(async () => {
      location = await makeDbLocation()
      store = await openStore(location.dbLocation)
      const traces = [...cleanCouncil({ tasks: TASKS, seed: 5 })]
      await seedTraces(store, traces)
      ids = traces.map((t) => t.task).sort()
      service = await createService({ store, dbLocation: location.dbLocation, nativeBinding: null, shell: 'web' })
      ;[alice, bob, carol] = ['alice', 'bob', 'carol'].map(as)
      await call('engine.updateSettings', { patch: { autoRefit: false } }, carol)
      // A fit, so that a verdict exists to be hidden.
      await fitNow()
    }, 60_000)
    afterEach(async () => {
      await service?.close()
      await location?.cleanup()
    }, 60_000)

    it('tells no one still blind (N = 2) a blind label through the flags export’s filters or others’ flag reasons', async () => {
      await team({ reviewersPerTask: 2 })
      const task = ids[0]
      await drawOnly(task, alice)
      const candidates = (await detail(task, alice, true)).task.candidates
      await blindLabel(task, candidates[1], alice)
      await call('flags.add', { taskId: task, reason: `alice: surely ${candidates[1]}` }, alice)
      await call('flags.add', { taskId: task, reason: 'bob cannot tell' }, bob)

      // Bob has not labeled it: no candidate and no label source finds his own flag on it.
      for (const c of candidates) expect(await exported('flags', { candidate: c }, bob)).toEqual([])
      expect(await exported('flags', { labelSource: 'random' }, bob)).toEqual([])
      // Alice's reason is hidden from him as task.detail hides it: the export and the audit log alike.
      const bobsFlags = await exported('flags', {}, bob)
      expect(bobsFlags.map((f) => [f.task, f.reviewer, f.reason])).toEqual([[task, 'bob', 'bob cannot tell']])
      expect((await detail(task, bob)).flags.map((f) => f.reviewer)).toEqual(['bob'])
      const tail = (await call<AuditEntryView[]>('audit.tail', { limit: 10 }, bob)).filter((a) => a.action === 'task.flag')
      expect(tail.map((a) => a.reviewer)).toEqual(['alice', 'bob'])
      expect(tail[0].details).not.toHaveProperty('reason')
      expect(tail[1].details).toMatchObject({ reason: 'bob cannot tell' })
      expect(JSON.stringify(await call('audit.tail', { limit: 10 }, bob))).not.toContain('surely')

      // Alice, who labeled it, sees both, by her label's candidate.
      expect((await exported('flags', { candidate: candidates[1] }, alice)).map((f) => f.reviewer)).toEqual(['alice', 'bob'])
      expect((await call<AuditEntryView[]>('audit.tail', { limit: 10 }, alice)).find((a) => a.action === 'task.flag')?.details).toMatchObject({ reason: `alice: surely ${candidates[1]}` })

      // Once bob commits his own label the task is open to him.
      await drawOnly(task, bob)
      await blindLabel(task, candidates[0], bob)
      expect((await exported('flags', {}, bob)).map((f) => f.reviewer)).toEqual(['alice', 'bob'])
      expect((await call<AuditEntryView[]>('audit.tail', { limit: 10 }, bob)).find((a) => a.action === 'task.flag')?.details).toMatchObject({ reason: `alice: surely ${candidates[1]}` })
    })

    it('lets a blind label into fits, audits and agreement only once every reviewer owed on its task has labeled it', async () => {
      // One reviewer per task: a blind label counts at once (unchanged).
      await drawOnly(ids[0], alice)
      const c0 = (await detail(ids[0], alice, true)).task.candidates
      await blindLabel(ids[0], c0[0], alice)
      expect((await fitNow()).metrics).toMatchObject({ calibrationLabels: 1, humanLabeled: 1 })

      // Three per task: that task now owes two more blind labels (sealed again), so it leaves what
      // fits learn; alice's, then bob's blind label of another task change nothing anyone reads.
      await team({ reviewersPerTask: 3 })
      expect((await fitNow()).metrics).toMatchObject({ calibrationLabels: 0, humanLabeled: 0 })
      const task = ids[1]
      const c = (await detail(task, alice, true)).task.candidates
      await drawOnly(task, alice)
      await blindLabel(task, c[0], alice)
      expect((await fitNow()).metrics).toMatchObject({ calibrationLabels: 0, humanLabeled: 0 })
      expect(await audit()).toMatchObject({ randomLabels: 0, labeledTasks: 0 })
      await drawOnly(task, bob)
      await blindLabel(task, c[1], bob)
      expect((await fitNow()).metrics).toMatchObject({ calibrationLabels: 0, humanLabeled: 0 })
      const partial = await audit()
      expect(partial).toMatchObject({ randomLabels: 0, labeledTasks: 0 })
      // Carol, still owed, learns nothing of whether alice and bob agreed.
      expect(partial.agreement.pairs).toEqual([])

      // Carol labels it: the task is complete, and now it counts (adjudicated, as its votes split).
      await drawOnly(task, carol)
      await blindLabel(task, c[0], carol)
      const done = await audit()
      expect(done.agreement.pairs.map((p) => [p.a, p.b, p.tasks])).toEqual([['alice', 'bob', 1], ['alice', 'carol', 1], ['bob', 'carol', 1]])
      const version = (await detail(task, carol)).task.version
      // An adjudicator outside the dispute rules (a reviewer never rules on one she labeled).
      await call('adjudicate.resolve', { taskId: task, label: c[0], expectedVersion: version }, as('dave'))
      expect((await fitNow()).metrics).toMatchObject({ calibrationLabels: 1, humanLabeled: 1 })
      expect(await audit()).toMatchObject({ randomLabels: 1, labeledTasks: 1 })
    })

    it('shows a login no verdict of a task drawn for it blind until its label is committed', async () => {
      const task = ids[2]
      await call('flags.add', { taskId: task, reason: 'bob: the council is split' }, bob)
      const bobsRow = await queueRow(task, bob)
      expect(bobsRow?.decision).not.toBeNull()
      expect(bobsRow?.answer).not.toBeNull()
      await drawOnly(task, alice)

      // Her non-blind detail, her queue row and her decisions export: no verdict, no flag reason but hers.
      const d = await detail(task, alice, false)
      expect(d).toMatchObject({ verdict: null, state: null, blind: true, gold: null, flags: [] })
      const row = await queueRow(task, alice)
      expect(row).toMatchObject({ taskId: task, state: null, decision: null, answer: null, posterior: null, gap: null, bound: null, stopRound: null, spotCheck: false })
      const exportedRow = (await exported('decisions', {}, alice)).find((r) => r.task === task)
      expect(exportedRow).toMatchObject({ decision: null, answer: null, posterior: null, gap: null })
      expect(await exported('flags', {}, alice)).toEqual([])
      // Nor does a filter on the verdict find it (its presence would tell its decision or answer).
      const decision = bobsRow?.decision as string
      const inView = async (filter: object, ctx: CallContext) =>
        (await call<QueuePageResult>('queue.page', { filter: { ...ALL, ...filter }, limit: 500 }, ctx)).rows.some((r) => r.taskId === task)
      expect(await inView({ decision }, bob)).toBe(true)
      expect(await inView({ decision }, alice)).toBe(false)
      expect(await inView({ candidate: bobsRow?.answer }, alice)).toBe(false)
      expect((await exported('decisions', { decision }, alice)).some((r) => r.task === task)).toBe(false)
      expect((await exported('flags', { candidate: bobsRow?.answer }, bob)).length).toBe(1)
      // Bob drew nothing: he sees it all.
      expect((await detail(task, bob)).verdict).not.toBeNull()

      // Committed: the verdict, and bob's reason, are hers to read.
      await blindLabel(task, d.task.candidates[0], alice)
      const after = await detail(task, alice, false)
      expect(after.verdict).not.toBeNull()
      expect(after.flags.map((f) => f.reviewer)).toEqual(['bob'])
      expect((await queueRow(task, alice))?.state).toBe('human')
      expect((await exported('flags', {}, alice)).map((f) => f.reason)).toEqual(['bob: the council is split'])
    })
  })
}
