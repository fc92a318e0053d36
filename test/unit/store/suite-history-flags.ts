/**
 * History, undo and flags in the store, on both backends: a reviewer's own labels newest first
 * (history, and what undo takes back), undo of a label whose task has moved on since is a
 * conflict, and flags — an append-only record, not a label, that ends the flagger's hold.
 */
import { beforeEach, describe, expect, it } from 'vitest'
import type { Actor, Store } from '../../../src/main/store'
import { ANA, BO, hasUndefined, importTasks, makeTask, NO_FILTER, rejection } from './fixtures'
import { useStore, type MakeStore } from './store-suite'

const CY: Actor = { reviewer: 'cy', sessionId: 'session-cy', shell: 'web' }

const label = (s: Store, taskId: string, value: string, actor: Actor, source: 'random' | 'escalation' = 'escalation', extra: { supersedes?: string; adjudicated?: boolean } = {}) =>
  s.getTaskSummary(taskId).then((t) =>
    s.recordLabel({ taskId, label: value, source, reviewer: actor.reviewer, expectedVersion: t.version, ...extra }, actor).then((r) => r.value)
  )

export function defineHistoryAndFlagTests(makeStore: MakeStore): void {
  describe('a reviewer’s own labels (history, undo)', () => {
    const store = useStore(makeStore)
    beforeEach(async () => {
      await importTasks(store(), [makeTask('t1'), makeTask('t2'), makeTask('t3')])
    })

    it('lists only the reviewer’s labels, newest first, with live, the task’s version and no later row', async () => {
      const a1 = await label(store(), 't1', 'true', ANA, 'random')
      await label(store(), 't2', 'false', BO)
      const a3 = await label(store(), 't3', 'false', ANA)
      const mine = await store().reviewerLabels({ reviewer: 'ana', limit: 20 })
      expect(mine.map((l) => [l.id, l.taskId, l.label, l.source, l.live, l.taskVersion, l.movedOn])).toEqual([
        [a3.labelId, 't3', 'false', 'escalation', true, 1, null],
        [a1.labelId, 't1', 'true', 'random', true, 1, null]
      ])
      expect(mine[0].question).toBe((await store().getTaskSummary('t3')).question)
      expect(hasUndefined(mine)).toBe(false)
      expect((await store().reviewerLabels({ reviewer: 'ana', limit: 1 })).map((l) => l.id)).toEqual([a3.labelId])
      expect((await store().reviewerLabels({ reviewer: 'ana', source: 'random', limit: 20 })).map((l) => l.id)).toEqual([a1.labelId])
      expect((await store().reviewerLabels({ reviewer: 'ana', taskId: 't1', limit: 20 })).map((l) => l.id)).toEqual([a1.labelId])
      expect(await store().reviewerLabels({ reviewer: 'nobody', limit: 20 })).toEqual([])
      expect((await rejection(store().reviewerLabels({ reviewer: 'ana', limit: 0 }))).code).toBe('bad_input')
      expect((await rejection(store().reviewerLabels({ reviewer: 'ana', source: 'gold' as never, limit: 5 }))).code).toBe('bad_input')
    })

    it('keeps undone and replaced labels (not live), leaves out undo markers, and liveOnly narrows to live ones', async () => {
      const first = await label(store(), 't1', 'true', ANA)
      const replaced = await label(store(), 't1', 'false', ANA, 'escalation', { supersedes: first.labelId })
      const other = await label(store(), 't2', 'true', ANA)
      await store().undoLabel({ labelId: other.labelId, expectedVersion: other.version }, ANA)
      const all = await store().reviewerLabels({ reviewer: 'ana', limit: 20 })
      expect(all.map((l) => [l.id, l.live])).toEqual([
        [other.labelId, false],
        [replaced.labelId, true],
        [first.labelId, false]
      ])
      // A label's own undo or replacement is not its task moving on.
      expect(all.every((l) => l.movedOn === null)).toBe(true)
      expect((await store().reviewerLabels({ reviewer: 'ana', liveOnly: true, limit: 20 })).map((l) => l.id)).toEqual([replaced.labelId])
    })

    it('names the later row when the task moved on, and refuses to undo such a label with a conflict, writing nothing', async () => {
      const mine = await label(store(), 't1', 'true', ANA)
      const theirs = await label(store(), 't1', 'false', BO)
      const [row] = await store().reviewerLabels({ reviewer: 'ana', limit: 1 })
      expect(row.movedOn).toMatchObject({ id: theirs.labelId, reviewer: 'bo', label: 'false', adjudicated: false })
      expect(row.taskVersion).toBe(2)
      const audit = (await store().auditTail(100)).length
      // Even with the task's current version: the version check alone would let it through.
      const e = await rejection(store().undoLabel({ labelId: mine.labelId, expectedVersion: 2 }, ANA))
      expect(e.code).toBe('conflict')
      expect(e.details).toMatchObject({ reason: 'moved_on', labelId: mine.labelId, movedOn: { id: theirs.labelId, reviewer: 'bo' } })
      expect(e.message).toContain('a label by bo')
      expect((await store().liveLabels('t1')).map((l) => l.id)).toEqual([mine.labelId, theirs.labelId])
      expect((await store().getTaskSummary('t1')).version).toBe(2)
      expect((await store().auditTail(100)).length).toBe(audit)
      // The later label itself is the task's latest word: its reviewer may undo it.
      await store().undoLabel({ labelId: theirs.labelId, expectedVersion: 2 }, BO)
      // …which is a later row too: ana's label stays where the task moved on from.
      expect((await store().reviewerLabels({ reviewer: 'ana', limit: 1 }))[0].movedOn).toMatchObject({ reviewer: 'bo', label: null })
    })

    it('counts an adjudication as moving the task on, and leaves out rulings when asked', async () => {
      const mine = await label(store(), 't2', 'true', ANA)
      await label(store(), 't2', 'false', BO)
      const ruling = await label(store(), 't2', 'true', CY, 'escalation', { adjudicated: true })
      const e = await rejection(store().undoLabel({ labelId: mine.labelId, expectedVersion: ruling.version }, ANA))
      expect(e.code).toBe('conflict')
      expect(e.message).toContain('an adjudication by cy')
      expect((await store().reviewerLabels({ reviewer: 'cy', adjudicated: false, limit: 5 }))).toEqual([])
      expect((await store().reviewerLabels({ reviewer: 'cy', adjudicated: true, limit: 5 })).map((l) => l.id)).toEqual([ruling.labelId])
    })
  })

  describe('flags', () => {
    const store = useStore(makeStore)
    beforeEach(async () => {
      await importTasks(store(), [makeTask('t1'), makeTask('t2'), makeTask('t3')])
    })

    it('appends a flag with reviewer, reason and time, audits it, and leaves the task’s labels and version alone', async () => {
      const r = await store().flagTask({ taskId: 't1', reason: '  both answers are defensible  ' }, ANA)
      expect(r.topics).toEqual(expect.arrayContaining(['tasks', 'audit']))
      expect(r.value).toMatchObject({ taskId: 't1', reviewer: 'ana', reason: 'both answers are defensible', sessionId: ANA.sessionId })
      expect(r.value.at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)
      await store().flagTask({ taskId: 't1', reason: 'needs a domain expert' }, BO)
      expect((await store().taskFlags('t1')).map((f) => [f.reviewer, f.reason])).toEqual([
        ['ana', 'both answers are defensible'],
        ['bo', 'needs a domain expert']
      ])
      expect(await store().taskFlags('t2')).toEqual([])
      expect(await store().getTaskSummary('t1')).toMatchObject({ version: 0, liveLabels: [] })
      expect(await store().counts()).toMatchObject({ labels: 0, labeledTasks: 0 })
      const audit = (await store().auditTail(10)).filter((a) => a.action === 'task.flag')
      expect(audit.map((a) => [a.reviewer, a.target, a.details.reason])).toEqual([
        ['ana', 't1', 'both answers are defensible'],
        ['bo', 't1', 'needs a domain expert']
      ])
    })

    it('ends the flagger’s own hold on the task, never another session’s', async () => {
      await store().reserveTask('t1', ANA, 60_000)
      const flagged = await store().flagTask({ taskId: 't1', reason: 'unclear question' }, ANA)
      expect((await store().auditTail(5)).at(-1)?.details).toMatchObject({ flagId: flagged.value.id, released: true })
      expect((await store().taskDetail('t1')).reservation).toBeNull()
      // BO can take it now; ANA flagging it again does not take BO's hold away.
      expect((await store().reserveTask('t1', BO, 60_000)).value.mine?.reviewer).toBe('bo')
      await store().flagTask({ taskId: 't1', reason: 'still unclear' }, ANA)
      expect((await store().taskDetail('t1')).reservation?.reviewer).toBe('bo')
    })

    it('refuses an empty or over-long reason and an unknown task, writing nothing', async () => {
      for (const reason of ['', '   ', 'x'.repeat(2001)]) {
        const e = await rejection(store().flagTask({ taskId: 't1', reason }, ANA))
        expect(e.code, JSON.stringify(reason.slice(0, 5))).toBe('bad_input')
        expect(e.message).toMatch(/^reason: /)
      }
      expect((await rejection(store().flagTask({ taskId: 'nope', reason: 'why' }, ANA))).code).toBe('not_found')
      expect(await store().taskFlags('t1')).toEqual([])
      expect((await store().auditTail(50)).filter((a) => a.action === 'task.flag')).toEqual([])
    })

    it('marks flagged tasks in every queue row, filters on them, and exports their flags', async () => {
      await store().flagTask({ taskId: 't2', reason: 'a' }, ANA)
      await store().flagTask({ taskId: 't2', reason: 'b' }, BO)
      await store().flagTask({ taskId: 't3', reason: 'c' }, ANA)
      await label(store(), 't3', 'true', ANA)
      const page = (flagged: boolean | null) => store().queuePage({ filter: { ...NO_FILTER, flagged }, sort: 'age', direction: 'asc', offset: 0, limit: 50 })
      const all = await page(null)
      expect(all.rows.map((r) => [r.taskId, r.flags])).toEqual([['t1', 0], ['t2', 2], ['t3', 1]])
      expect(all.rows.find((r) => r.taskId === 't3')?.state).toBe('human')
      const only = await page(true)
      expect([only.total, only.rows.map((r) => r.taskId)]).toEqual([2, ['t2', 't3']])
      const none = await page(false)
      expect([none.total, none.rows.map((r) => r.taskId)]).toEqual([1, ['t1']])
      expect((await rejection(store().queuePage({ filter: { ...NO_FILTER, flagged: 'yes' as never }, sort: 'age', direction: 'asc', offset: 0, limit: 5 }))).code).toBe('bad_input')

      const exported = await store().filteredFlags(NO_FILTER, null, 2)
      expect(exported.rows.map((f) => [f.taskId, f.reason])).toEqual([['t2', 'a'], ['t2', 'b']])
      expect(exported.lastTaskId).toBe('t2')
      const rest = await store().filteredFlags(NO_FILTER, exported.lastTaskId, 2)
      expect(rest.rows.map((f) => [f.taskId, f.reason])).toEqual([['t3', 'c']])
      expect((await store().filteredFlags({ ...NO_FILTER, decision: 'human' }, null, 10)).rows.map((f) => f.taskId)).toEqual(['t3'])
    })
  })
}
