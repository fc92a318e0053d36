/**
 * The calibration set is nobody's to steer, through the service's contract calls on either backend
 * (calibration-set.test.ts runs it on both): the server alone chooses a login's draw and answers the
 * same open draw until it is labeled, skipped or expired; a `random` label is taken only on that
 * session's latest unexpired draw; skips are capped per login and shown in Audit; a blind label is
 * not undone but replaced on its draw; and no other login's label replaces it without an
 * adjudication. Each case starts from a fresh database with one fit and a clock the test moves.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { AuditSummary, CalibrateDrawResult, CallContext, ResolveResult, TaskDetail } from '../../../src/shared/api'
import { dispatch } from '../../../src/main/host/dispatch'
import { DRAW_MS } from '../../../src/main/service/handlers/queue'
import { createService, type Service } from '../../../src/main/service'
import { cleanCouncil } from '../../../src/main/sim'
import { openStore, type Store } from '../../../src/main/store'
import { SKIP_BASE } from '../../../src/main/store/ops/draws'
import type { DbLocation, MakeDbLocation } from '../../helpers/db-location'
import { seedTraces } from '../../helpers/seed'

const TASKS = 16

export function defineCalibrationSetSuite(name: string, makeDbLocation: MakeDbLocation): void {
  describe(`the calibration set is nobody's to steer on ${name}`, () => {
    let location: DbLocation | null = null
    let service: Service
    let store: Store
    let ids: string[] = []
    let clock = 0
    const as = (reviewer: string, tab = 'one'): CallContext => ({ ...service.context(), reviewer, sessionId: `window-${reviewer}-${tab}` })

    const envelope = (method: string, args: unknown, ctx: CallContext) => dispatch(service.handlers, method, args, ctx)
    const call = async <T = unknown>(method: string, args: unknown, ctx: CallContext): Promise<T> => {
      const env = await envelope(method, args, ctx)
      if (!env.ok) throw Object.assign(new Error(env.error.message), env.error)
      return env.value as T
    }
    const failure = async (method: string, args: unknown, ctx: CallContext) => {
      const env = await envelope(method, args, ctx)
      if (env.ok) throw new Error(`${method} succeeded`)
      return env.error
    }
    const draw = (ctx: CallContext, after: string | null = null) => call<CalibrateDrawResult>('calibrate.draw', { after }, ctx)
    const detail = (taskId: string, ctx: CallContext) => call<TaskDetail>('task.detail', { taskId, blind: true }, ctx)
    const resolveArgs = async (taskId: string, pick: number, ctx: CallContext, source: 'random' | 'escalation') => {
      const d = await detail(taskId, ctx)
      return { taskId, label: d.task.candidates[pick], expectedVersion: d.task.version, source }
    }
    const label = async (taskId: string, pick: number, ctx: CallContext, source: 'random' | 'escalation' = 'random') =>
      call<ResolveResult>('labels.resolve', await resolveArgs(taskId, pick, ctx, source), ctx)
    const refusedLabel = async (taskId: string, pick: number, ctx: CallContext, source: 'random' | 'escalation' = 'random') =>
      failure('labels.resolve', await resolveArgs(taskId, pick, ctx, source), ctx)
    /** The task's effective label: reviewer, source, label. */
    const effective = async (taskId: string) => {
      const e = (await store.effectiveLabels()).find((l) => l.taskId === taskId)
      return e === undefined ? null : [e.reviewer, e.source, e.label]
    }

    beforeEach(async () => {
      clock = Date.parse('2026-03-02T09:00:00.000Z')
      location = await makeDbLocation()
      store = await openStore(location.dbLocation, { now: () => new Date(clock) })
      const traces = [...cleanCouncil({ tasks: TASKS, seed: 7 })]
      await seedTraces(store, traces)
      ids = traces.map((t) => t.task).sort()
      service = await createService({ store, dbLocation: location.dbLocation, nativeBinding: null, shell: 'web' })
      await call('engine.updateSettings', { patch: { autoRefit: false } }, as('alice'))
      await call('fits.run', {}, as('alice'))
    }, 60_000)
    afterEach(async () => {
      await service?.close()
      await location?.cleanup()
    }, 60_000)

    it('chooses the draw on the server: no client exclusions, and asking again answers the same open draw', async () => {
      const bob = as('bob')
      expect(await failure('calibrate.draw', { exclude: ids.slice(1) }, bob)).toMatchObject({ code: 'bad_input' })
      const first = await draw(bob)
      expect(first.taskId).not.toBeNull()
      expect(first.expiresAt).toBe(new Date(clock + DRAW_MS).toISOString())
      // Drawing many to label the easy ones is not possible: every ask answers the one open draw.
      for (let i = 0; i < 5; i++) expect((await draw(bob)).taskId).toBe(first.taskId)
      const other = ids.find((t) => t !== first.taskId) as string
      expect(await refusedLabel(other, 0, bob)).toMatchObject({ code: 'unauthorized', details: { reason: 'not-drawn' } })
      expect((await label(first.taskId as string, 0, bob)).source).toBe('random')
      // Labeled, it stands while it lives (its labeler may still change the label on it) until the
      // console moves on from it: then the next ask draws anew.
      expect((await draw(bob)).taskId).toBe(first.taskId)
      const next = await draw(bob, first.taskId)
      expect(next.taskId).not.toBe(first.taskId)
      expect(await effective(first.taskId as string)).toEqual(['bob', 'random', expect.any(String)])
    })

    it("takes a random label only on the session's latest unexpired draw of the task", async () => {
      const one = as('bob', 'one')
      const two = as('bob', 'two')
      const task = (await draw(one)).taskId as string
      // The draw belongs to the session that asked last: a second tab takes it over.
      expect((await draw(two)).taskId).toBe(task)
      expect(await refusedLabel(task, 0, one)).toMatchObject({ code: 'unauthorized', details: { reason: 'not-drawn' } })
      // Expired: no blind label any more, whichever session.
      clock += DRAW_MS + 1
      expect(await refusedLabel(task, 0, two)).toMatchObject({ code: 'unauthorized', details: { reason: 'draw-expired' } })
      expect(await store.liveLabels(task)).toEqual([])
      // An expired draw counts as a skip, and the next draw is another task.
      const after = await draw(two)
      expect(after.skips).toBe(1)
      expect(after.taskId).not.toBe(task)
      expect((await label(after.taskId as string, 1, two)).source).toBe('random')
    })

    it('caps skips per login and shows each login’s draws and skips in Audit', async () => {
      const bob = as('bob')
      let open = await draw(bob)
      expect(open.skipsLeft).toBe(SKIP_BASE)
      const skipped = new Set<string>()
      for (let i = 0; i < SKIP_BASE; i++) {
        skipped.add(open.taskId as string)
        open = await call<CalibrateDrawResult>('calibrate.skip', { taskId: open.taskId }, bob)
        // A skipped task is not drawn again for that login.
        expect(skipped.has(open.taskId as string)).toBe(false)
      }
      expect(open).toMatchObject({ skips: SKIP_BASE, skipsLeft: 0 })
      expect(await failure('calibrate.skip', { taskId: open.taskId }, bob)).toMatchObject({ code: 'unauthorized', details: { reason: 'skip-limit' } })
      // Nor does waiting the draw out get round the cap: the same task comes back.
      clock += DRAW_MS + 1
      expect((await draw(bob)).taskId).toBe(open.taskId)
      await label(open.taskId as string, 0, bob)
      const rows = (await call<AuditSummary>('audit.summary', {}, as('carol'))).reviewers
      expect(rows.find((r) => r.reviewer === 'bob')).toMatchObject({ random: 1, draws: SKIP_BASE + 1, skips: SKIP_BASE })
    })

    it('replaces a blind label on its own draw instead of undoing it: the task stays in the calibration set', async () => {
      const alice = as('alice')
      const task = (await draw(alice)).taskId as string
      const first = await label(task, 0, alice)
      expect(first.source).toBe('random')
      const v = (await detail(task, alice)).task.version
      expect(await failure('labels.undo', { labelId: first.labelId, expectedVersion: v }, alice)).toMatchObject({ code: 'conflict', details: { reason: 'blind-label' } })
      expect(await failure('labels.undoLast', { source: 'random' }, alice)).toMatchObject({ code: 'conflict', details: { reason: 'blind-label' } })
      expect(await effective(task)).toEqual(['alice', 'random', expect.any(String)])
      // The replacement on the same draw is taken, and stays blind.
      const changed = await label(task, 1, alice)
      expect(changed.source).toBe('random')
      const d = await detail(task, alice)
      expect(await effective(task)).toEqual(['alice', 'random', d.task.candidates[1]])
      // Once alice moved on to her next draw, that label is no longer hers to change.
      await draw(alice, task)
      expect(await refusedLabel(task, 0, alice)).toMatchObject({ code: 'unauthorized' })
      expect(await refusedLabel(task, 0, alice, 'escalation')).toMatchObject({ code: 'conflict', details: { reason: 'blind-label' } })
      expect(await effective(task)).toEqual(['alice', 'random', d.task.candidates[1]])
    })

    it("lets no other login's label replace a blind label without an adjudication; the labeler's change still works", async () => {
      const alice = as('alice')
      const bob = as('bob')
      const task = (await draw(alice)).taskId as string
      await label(task, 0, alice)
      const agreeing = (await detail(task, alice)).task.candidates[0]
      // Bob's agreeing escalation would become the effective label and take the task out of C.
      expect(await refusedLabel(task, 0, bob, 'escalation')).toMatchObject({ code: 'conflict', details: { reason: 'calibration-set', taskId: task } })
      expect(await refusedLabel(task, 1, bob, 'escalation')).toMatchObject({ code: 'conflict', details: { reason: 'calibration-set' } })
      expect(await refusedLabel(task, 0, bob)).toMatchObject({ code: 'unauthorized' })
      expect(await store.liveLabels(task)).toHaveLength(1)
      expect(await effective(task)).toEqual(['alice', 'random', agreeing])
      // A flag asks an adjudicator instead; alice's change on her draw still goes through.
      await call('flags.add', { taskId: task, reason: 'bob doubts it' }, bob)
      expect((await label(task, 1, alice)).source).toBe('random')
      expect((await effective(task))?.[1]).toBe('random')
    })
  })
}
