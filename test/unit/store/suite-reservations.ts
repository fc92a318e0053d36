/**
 * Reservations, on every backend (one suite, two backends): a session
 * that opens a task holds it until the hold expires; renewing extends it; other sessions' queues
 * skip it (their totals too) while the holder's keeps it; another session's label write is a
 * `conflict` naming the holder, writing nothing; an expired hold counts for nothing. The store's
 * clock is injected and moved by hand, so expiry is exact and nothing sleeps.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Actor, QueueQuery, Store } from '../../../src/main/store'
import { ANA, BO, decision, importTasks, makeTask, NO_FILTER, rejection, saveDecisions } from './fixtures'
import type { MakeStore, StoreHandle } from './store-suite'

const MIN = 60_000
const TTL = 10 * MIN
/** Ana in a second window: the same reviewer, another session. */
const ANA_2: Actor = { ...ANA, sessionId: 'session-ana-2' }

const page = (viewerSession: string | null, decided = true): QueueQuery => ({
  filter: { ...NO_FILTER, decision: decided ? 'defer' : null }, sort: 'age', direction: 'asc', offset: 0, limit: 50, viewerSession
})

export function defineReservationTests(makeStore: MakeStore): void {
  describe('reservations', () => {
    let handle: StoreHandle | null = null
    let clock = Date.parse('2026-03-02T09:00:00.000Z')
    const advance = (ms: number) => (clock += ms)
    const at = (ms: number) => new Date(clock + ms).toISOString()
    const s = (): Store => {
      if (handle === null) throw new Error('no store')
      return handle.store
    }
    const ids = async (q: QueueQuery) => (await s().queuePage(q)).rows.map((r) => r.taskId)
    const audits = async (action: string) => (await s().auditTail(500)).filter((a) => a.action === action)

    beforeEach(async () => {
      clock = Date.parse('2026-03-02T09:00:00.000Z')
      handle = await makeStore({ now: () => new Date(clock) })
      await importTasks(s(), [makeTask('t1'), makeTask('t2'), makeTask('t3')])
      const fit = await s().saveFit({ method: 'per-agent', hyperparameters: {}, reliabilities: {}, certificate: null, metrics: null, parentFitId: null }, ANA)
      await saveDecisions(s(), fit.value.id, ['t1', 't2', 't3'].map((t, i) => decision(t, 'defer', 0.1 * (i + 1))), ANA)
    })
    afterEach(async () => {
      await handle?.cleanup()
      handle = null
    })

    it('passes over, for "next", a task labeled since the page was read or flagged by the caller, reserving nothing', async () => {
      const seen = (await s().queuePage(page(ANA.sessionId))).rows.map((r) => ({ taskId: r.taskId, version: r.version }))
      const v = (taskId: string) => seen.find((r) => r.taskId === taskId)?.version ?? -1
      await s().recordLabel({ taskId: 't1', label: 'true', source: 'escalation', reviewer: 'bo', expectedVersion: 0 }, BO)
      expect((await s().reserveTask('t1', ANA, TTL, v('t1'))).value).toMatchObject({ mine: null, heldBy: null, passedOver: { reason: 'changed', labeledBy: 'bo' } })
      await s().flagTask({ taskId: 't2', reason: 'cannot tell' }, ANA)
      expect((await s().reserveTask('t2', ANA, TTL, v('t2'))).value).toMatchObject({ mine: null, passedOver: { reason: 'flagged-by-you' } })
      for (const t of ['t1', 't2']) expect((await s().taskDetail(t)).reservation).toBeNull()
      // Another reviewer's flag is no reason to pass over; an unchanged task is claimed.
      expect((await s().reserveTask('t2', BO, TTL, v('t2'))).value).toMatchObject({ mine: { taskId: 't2' }, passedOver: null })
      expect((await s().reserveTask('t3', ANA, TTL, v('t3'))).value).toMatchObject({ mine: { taskId: 't3' }, passedOver: null })
      // Without a seen version (opening a task, the heartbeat) the task is held as before.
      expect((await s().reserveTask('t1', ANA, TTL)).value).toMatchObject({ mine: { taskId: 't1' }, passedOver: null })
    })

    it('holds a task for its session until the hold expires; the holder renews it without a new audit row', async () => {
      const first = await s().reserveTask('t1', ANA, TTL)
      expect(first.value).toEqual({ mine: { taskId: 't1', reviewer: 'ana', sessionId: ANA.sessionId, expiresAt: at(TTL) }, heldBy: null, passedOver: null, renewed: false, released: [] })
      expect(await audits('task.reserve')).toEqual([expect.objectContaining({ reviewer: 'ana', sessionId: ANA.sessionId, target: 't1', details: { expiresAt: at(TTL) } })])

      advance(6 * MIN)
      const renewed = await s().reserveTask('t1', ANA, TTL)
      expect(renewed.value).toMatchObject({ mine: { expiresAt: at(TTL) }, heldBy: null, renewed: true })
      expect(await audits('task.reserve')).toHaveLength(1)

      // 6 + 9 minutes after the first hold: past its first expiry, within the renewed one.
      advance(9 * MIN)
      expect((await s().reserveTask('t1', BO, TTL)).value).toEqual({ mine: null, heldBy: renewed.value.mine, passedOver: null, renewed: false, released: [] })
      expect((await s().taskDetail('t1')).reservation).toEqual(renewed.value.mine)
    })

    it('leaves a held task out of other sessions’ queues and totals, and keeps it in the holder’s', async () => {
      await s().reserveTask('t2', ANA, TTL)
      for (const decided of [true, false]) {
        expect(await ids(page(BO.sessionId, decided))).toEqual(['t1', 't3'])
        expect((await s().queuePage(page(BO.sessionId, decided))).total).toBe(2)
        // Ana's other window is another session: it skips the task too.
        expect(await ids(page(ANA_2.sessionId, decided))).toEqual(['t1', 't3'])
        const mine = await s().queuePage(page(ANA.sessionId, decided))
        expect(mine.rows.map((r) => [r.taskId, r.reservedBy?.reviewer ?? null])).toEqual([['t1', null], ['t2', 'ana'], ['t3', null]])
        expect(mine.total).toBe(3)
        // No viewer (the CLI, tools): every task, the hold shown.
        expect((await s().queuePage(page(null, decided))).rows.find((r) => r.taskId === 't2')?.reservedBy).toMatchObject({ reviewer: 'ana', expiresAt: at(TTL) })
      }
      // A filtered view counts its rows: the same skip.
      expect((await s().queuePage({ ...page(BO.sessionId), filter: { ...NO_FILTER, decision: 'defer', group: 'G1' } })).total).toBe(2)
      expect((await rejection(s().queuePage(page('')))).code).toBe('bad_input')
    })

    it('refuses another session’s label or undo on a held task with a conflict naming the holder, writing nothing', async () => {
      const boLabel = await s().recordLabel({ taskId: 't3', label: 'true', source: 'escalation', reviewer: 'bo', expectedVersion: 0 }, BO)
      await s().reserveTask('t1', ANA, TTL)
      await s().reserveTask('t3', ANA, TTL)
      const before = { counts: await s().counts(), audit: (await s().auditTail(500)).length }

      for (const actor of [BO, ANA_2]) {
        const e = await rejection(s().recordLabel({ taskId: 't1', label: 'false', source: 'escalation', reviewer: actor.reviewer, expectedVersion: 0 }, actor))
        expect(e.code).toBe('conflict')
        expect(e.message).toMatch(/t1.*ana/)
        expect(e.details).toEqual({ taskId: 't1', reason: 'reserved', heldBy: { taskId: 't1', reviewer: 'ana', sessionId: ANA.sessionId, expiresAt: at(TTL) } })
      }
      const undo = await rejection(s().undoLabel({ labelId: boLabel.value.labelId, expectedVersion: 1 }, BO))
      expect(undo).toMatchObject({ code: 'conflict', details: { reason: 'reserved', heldBy: { reviewer: 'ana' } } })

      expect(await s().counts()).toEqual(before.counts)
      expect(await s().auditTail(500)).toHaveLength(before.audit)
      expect((await s().getTaskSummary('t1')).version).toBe(0)
      expect((await s().taskDetail('t1')).reservation?.reviewer).toBe('ana')

      // The holder's own label goes through and ends the hold; a stale write is a version conflict.
      const ana = await s().recordLabel({ taskId: 't1', label: 'true', source: 'escalation', reviewer: 'ana', expectedVersion: 0 }, ANA)
      expect(ana.value.version).toBe(1)
      expect((await s().taskDetail('t1')).reservation).toBeNull()
      const stale = await rejection(s().recordLabel({ taskId: 't1', label: 'false', source: 'escalation', reviewer: 'bo', expectedVersion: 0 }, BO))
      expect(stale).toMatchObject({ code: 'conflict', details: { taskId: 't1', expectedVersion: 0, currentVersion: 1 } })
    })

    it('gives an expired hold’s task back to everyone: queues, details, reserve and label writes', async () => {
      await s().reserveTask('t2', ANA, TTL)
      advance(TTL - 1)
      expect(await ids(page(BO.sessionId))).toEqual(['t1', 't3'])
      advance(1)
      expect(await ids(page(BO.sessionId))).toEqual(['t1', 't2', 't3'])
      expect((await s().queuePage(page(BO.sessionId))).total).toBe(3)
      expect((await s().queuePage(page(null))).rows.find((r) => r.taskId === 't2')?.reservedBy).toBeNull()
      expect((await s().taskDetail('t2')).reservation).toBeNull()

      // Bo takes it over (a new hold: audited); now Ana's label is the refused one.
      const bo = await s().reserveTask('t2', BO, TTL)
      expect(bo.value).toMatchObject({ mine: { reviewer: 'bo' }, renewed: false })
      expect((await audits('task.reserve')).map((a) => a.reviewer)).toEqual(['ana', 'bo'])
      const e = await rejection(s().recordLabel({ taskId: 't2', label: 'true', source: 'escalation', reviewer: 'ana', expectedVersion: 0 }, ANA))
      expect(e).toMatchObject({ code: 'conflict', details: { heldBy: { reviewer: 'bo' } } })

      // An expired hold refuses nothing, and the write ends it.
      advance(TTL)
      await s().recordLabel({ taskId: 't2', label: 'true', source: 'escalation', reviewer: 'ana', expectedVersion: 0 }, ANA)
      expect((await s().liveLabels('t2')).map((l) => l.reviewer)).toEqual(['ana'])
      expect((await s().reserveTask('t2', ANA_2, TTL)).value.heldBy).toBeNull()
    })

    it('releases only the caller’s own hold', async () => {
      await s().reserveTask('t1', ANA, TTL)
      expect((await s().releaseTask('t1', BO)).value).toBe(false)
      expect((await s().releaseTask('t1', ANA_2)).value).toBe(false)
      expect((await s().taskDetail('t1')).reservation?.sessionId).toBe(ANA.sessionId)
      expect((await s().releaseTask('t1', ANA)).value).toBe(true)
      expect((await audits('task.release')).map((a) => [a.reviewer, a.target])).toEqual([['ana', 't1']])
      expect(await ids(page(BO.sessionId))).toEqual(['t1', 't2', 't3'])
    })
  })
}
