/**
 * Several reviewers per task through the service's contract calls, on either backend
 * (team.test.ts runs it on both): the team settings; double-labeling under the sealed rule — Bo sees nothing of
 * Ana's label (detail, queue, recent labels, audit log, a resolve's conflict) until he commits his
 * own; the disagreement listed for adjudication; the adjudicators setting; the ruling recorded as
 * an adjudicated label of the labels' source and audited; agreement in the audit summary.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AdjudicationList, AuditEntryView, AuditSummary, CallContext, QueuePageResult, RecentLabel, ResolveResult, TaskDetail, TeamSettings } from '../../../src/shared/api'
import { dispatch } from '../../../src/main/host/dispatch'
import { createService, type Service } from '../../../src/main/service'
import { cleanCouncil } from '../../../src/main/sim'
import { openStore, type Store } from '../../../src/main/store'
import { actorOf } from '../../../src/main/service/core'
import { drawChosen } from '../../helpers/chosen-draw'
import type { DbLocation, MakeDbLocation } from '../../helpers/db-location'
import { seedTraces } from '../../helpers/seed'

const TASKS = 8

export function defineTeamSuite(name: string, makeDbLocation: MakeDbLocation): void {
  describe(`several reviewers per task on ${name}`, () => {
    let location: DbLocation | null = null
    let service: Service
    let store: Store
    let ids: string[] = []
    const as = (reviewer: string): CallContext => ({ ...service.context(), reviewer, sessionId: `window-${reviewer}` })
    let ana: CallContext
    let bo: CallContext
    let cy: CallContext
    let dee: CallContext

    const call = async <T = unknown>(method: string, args: unknown, ctx: CallContext): Promise<T> => {
      const env = await dispatch(service.handlers, method, args, ctx)
      if (!env.ok) throw Object.assign(new Error(env.error.message), env.error)
      return env.value as T
    }
    const failure = async (method: string, args: unknown, ctx: CallContext) => {
      const env = await dispatch(service.handlers, method, args, ctx)
      if (env.ok) throw new Error(`${method} succeeded`)
      return env.error
    }
    /** Is `only` drawable for `ctx` (the server's draw rule, every other task left out)? If so it is their draw now. */
    const drawable = async (only: string, ctx: CallContext) => drawChosen(store, actorOf(ctx), only, ids)
    const detail = (taskId: string, ctx: CallContext, blind = true) => call<TaskDetail>('task.detail', { taskId, blind }, ctx)
    /** A blind label: Calibrate draws the task for `ctx` first (`random` needs the server's draw). */
    const resolve = async (taskId: string, label: string, expectedVersion: number, ctx: CallContext) => {
      expect(await drawable(taskId, ctx)).toBe(true)
      return call<ResolveResult>('labels.resolve', { taskId, label, expectedVersion, source: 'random' }, ctx)
    }

    beforeAll(async () => {
      location = await makeDbLocation()
      store = await openStore(location.dbLocation)
      const traces = [...cleanCouncil({ tasks: TASKS, seed: 3 })]
      await seedTraces(store, traces)
      ids = traces.map((t) => t.task).sort()
      service = await createService({ store, dbLocation: location.dbLocation, nativeBinding: null, shell: 'web' })
      ;[ana, bo, cy, dee] = ['ana', 'bo', 'cy', 'dee'].map(as)
      await call('engine.updateSettings', { patch: { autoRefit: false } }, ana)
      // A fit, so that a verdict exists to be hidden from a blind view.
      await call('fits.run', {}, ana)
    })
    afterAll(async () => {
      await service?.close()
      await location?.cleanup()
    })

    it('keeps the team settings in the database: one reviewer per task by default, validated', async () => {
      expect(await call<TeamSettings>('team.getSettings', {}, ana)).toEqual({ reviewersPerTask: 1, adjudicators: [] })
      expect(await failure('team.updateSettings', { patch: { reviewersPerTask: 0 } }, ana)).toMatchObject({ code: 'bad_input' })
      expect(await failure('team.updateSettings', { patch: { reviewersPerTask: 2.5 } }, ana)).toMatchObject({ code: 'bad_input' })
      expect(await failure('team.updateSettings', { patch: { adjudicators: [''] } }, ana)).toMatchObject({ code: 'bad_input' })
      expect(await call<TeamSettings>('team.getSettings', {}, bo)).toEqual({ reviewersPerTask: 1, adjudicators: [] })
      expect(await call<TeamSettings>('team.updateSettings', { patch: { reviewersPerTask: 2 } }, ana)).toEqual({ reviewersPerTask: 2, adjudicators: [] })
      const tail = await call<AuditEntryView[]>('audit.tail', { limit: 1 }, ana)
      expect(tail[0]).toMatchObject({ action: 'settings.set', reviewer: 'ana', details: { set: { 'team.reviewersPerTask': 2 } } })
    })

    it('double-labels sealed: Bo sees nothing of Ana’s label before he commits his own', async () => {
      const task = ids[0]
      const before = await detail(task, bo)
      expect(before.task.version).toBe(0)
      expect(await drawable(task, ana)).toBe(true)
      const first = await resolve(task, before.task.candidates[0], 0, ana)
      expect(first.version).toBe(1)

      // Ana is done with it; Bo may still draw it, and sees it as unlabeled — and, drawn for him
      // blind, without its verdict whichever view asks until he commits.
      expect(await drawable(task, ana)).toBe(false)
      expect(await drawable(task, bo)).toBe(true)
      for (const blind of [true, false]) {
        const seen = await detail(task, bo, blind)
        expect(seen.labels).toEqual([])
        expect(seen.labelLog).toEqual([])
        expect(seen.gold).toBeNull()
        expect(seen.blind).toBe(true)
        expect(seen.verdict).toBeNull()
      }
      expect((await detail(task, ana)).labels.map((l) => l.reviewer)).toEqual(['ana'])
      // Nor in the queue, the recent labels or the audit log.
      const human = await call<QueuePageResult>('queue.page', { filter: { decision: 'human' } }, bo)
      expect(human.rows.map((r) => [r.taskId, r.state, r.label, r.answer])).toEqual([[task, 'human', null, null]])
      expect((await call<QueuePageResult>('queue.page', { filter: { decision: 'human' } }, ana)).rows[0].label).toMatchObject({ reviewer: 'ana' })
      expect((await call<RecentLabel[]>('labels.recent', {}, bo)).filter((l) => l.taskId === task)).toEqual([])
      expect((await call<RecentLabel[]>('labels.recent', {}, cy)).filter((l) => l.taskId === task)).toEqual([])
      expect((await call<RecentLabel[]>('labels.recent', {}, ana)).filter((l) => l.taskId === task)).toHaveLength(1)
      const logged = (await call<AuditEntryView[]>('audit.tail', { limit: 5 }, bo)).find((a) => a.action === 'label.record' && a.target === task)
      expect(logged?.details).not.toHaveProperty('label')
      expect(logged?.details).toMatchObject({ reviewer: 'ana', version: 1 })

      // A resolve on the version Bo first read is a conflict that does not name Ana's label.
      const conflict = await failure('labels.resolve', { taskId: task, label: before.task.candidates[1], expectedVersion: 0, source: 'random' }, bo)
      expect(conflict).toMatchObject({ code: 'conflict', details: { taskId: task, currentVersion: 1, latestLiveLabel: null } })

      // Bo commits (disagreeing); now both see both, and nobody may draw the task again.
      await resolve(task, before.task.candidates[1], 1, bo)
      const after = await detail(task, bo)
      expect(after.labels.map((l) => [l.reviewer, l.label])).toEqual([['ana', before.task.candidates[0]], ['bo', before.task.candidates[1]]])
      expect(after.blind).toBe(false)
      expect(after.verdict).not.toBeNull()
      expect((await detail(task, ana)).labels).toHaveLength(2)
      expect((await detail(task, cy)).labels).toHaveLength(2)
      for (const ctx of [ana, bo, cy]) expect(await drawable(task, ctx)).toBe(false)
      // They disagree: the task is human, without a label, until adjudicated.
      const row = (await call<QueuePageResult>('queue.page', { filter: { decision: 'human' } }, cy)).rows.find((r) => r.taskId === task)
      expect(row).toMatchObject({ state: 'human', label: null })
    })

    it('lists the disagreement for adjudication; the adjudicators setting says who may rule', async () => {
      const task = ids[0]
      const list = await call<AdjudicationList>('adjudicate.list', {}, cy)
      expect(list).toMatchObject({ total: 1, offset: 0, canAdjudicate: true })
      expect(list.rows.map((r) => [r.taskId, r.version, r.labels.map((l) => l.reviewer)])).toEqual([[task, 2, ['ana', 'bo']]])

      await call('team.updateSettings', { patch: { adjudicators: ['dee'] } }, ana)
      expect((await call<AdjudicationList>('adjudicate.list', {}, cy)).canAdjudicate).toBe(false)
      const refused = await failure('adjudicate.resolve', { taskId: task, label: list.rows[0].labels[0].label, expectedVersion: 2 }, cy)
      expect(refused).toMatchObject({ code: 'unauthorized', message: expect.stringContaining('dee') })
      expect(await failure('adjudicate.resolve', { taskId: task, label: 'not a candidate', expectedVersion: 2 }, dee)).toMatchObject({ code: 'bad_input' })
      expect(await failure('adjudicate.resolve', { taskId: task, label: list.rows[0].labels[0].label, expectedVersion: 1 }, dee)).toMatchObject({ code: 'conflict' })
      expect((await detail(task, cy)).task.version).toBe(2)

      const ruling = list.rows[0].labels[1].label as string
      const r = await call<ResolveResult>('adjudicate.resolve', { taskId: task, label: ruling, expectedVersion: 2, note: 'checked the source' }, dee)
      expect(r.version).toBe(3)
      const settled = await detail(task, cy)
      expect(settled.labels.at(-1)).toMatchObject({ reviewer: 'dee', label: ruling, adjudicated: true, source: 'random', note: 'checked the source' })
      const row = (await call<QueuePageResult>('queue.page', { filter: { decision: 'human' } }, cy)).rows.find((x) => x.taskId === task)
      expect(row?.label).toMatchObject({ reviewer: 'dee', label: ruling, source: 'random' })
      expect((await call<AuditEntryView[]>('audit.tail', { limit: 1 }, cy))[0]).toMatchObject({ action: 'label.adjudicate', reviewer: 'dee', target: task, details: { adjudicated: true } })
      expect((await call<AdjudicationList>('adjudicate.list', {}, dee)).total).toBe(0)
      // Settled: a second ruling is refused, and a task whose reviewers agree was never in the list.
      expect(await failure('adjudicate.resolve', { taskId: task, label: ruling, expectedVersion: 3 }, dee)).toMatchObject({ code: 'bad_input' })
      expect(await failure('adjudicate.resolve', { taskId: 'no-such-task', label: ruling, expectedVersion: 0 }, dee)).toMatchObject({ code: 'not_found' })
    })

    it('measures agreement per pair and overall in the audit summary', async () => {
      // Two more tasks both label alike, one more they split: Ana–Bo agree on 2 of 4.
      for (const [i, same] of [[1, true], [2, true], [3, false]] as const) {
        const d = await detail(ids[i], ana)
        await resolve(ids[i], d.task.candidates[0], 0, ana)
        await resolve(ids[i], d.task.candidates[same ? 0 : 1], 1, bo)
      }
      // No longer sealed for cy (N reached), and its blind labels are the calibration set's: cy's
      // label from the queue would replace them without an adjudication, so it is refused.
      const c = await detail(ids[1], cy)
      const refused = await failure('labels.resolve', { taskId: ids[1], label: c.task.candidates[0], expectedVersion: c.task.version, source: 'escalation' }, cy)
      expect(refused).toMatchObject({ code: 'conflict', details: { reason: 'calibration-set' } })
      const a = await call<AuditSummary>('audit.summary', {}, ana)
      expect(a.agreement.reviewers).toEqual(['ana', 'bo'])
      expect(a.agreement.pairs.map((p) => [p.a, p.b, p.tasks, p.observed])).toEqual([['ana', 'bo', 4, 0.5]])
      expect(a.agreement.overall).toMatchObject({ tasks: 4, minRaters: 2, maxRaters: 2 })
      expect(a.agreement.overall?.kappa).not.toBeNull()
    })
  })
}
