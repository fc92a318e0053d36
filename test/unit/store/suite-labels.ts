import { beforeEach, describe, expect, it } from 'vitest'
import type { VersionConflictDetails } from '../../../src/main/store'
import { ANA, BO, hasUndefined, importTasks, makeTask, rejection } from './fixtures'
import { useStore, type MakeStore } from './store-suite'

export function defineLabelTests(makeStore: MakeStore): void {
  describe('labels', () => {
    const store = useStore(makeStore)
    beforeEach(async () => {
      await importTasks(store(), [makeTask('t1'), makeTask('t2')])
    })

    it('records a label, bumps the version and reports it live', async () => {
      const r = await store().recordLabel(
        { taskId: 't1', label: 'true', source: 'escalation', reviewer: 'ana', note: 'clear', expectedVersion: 0 },
        ANA
      )
      expect(r.value).toMatchObject({ taskId: 't1', version: 1 })
      expect(r.topics).toEqual(expect.arrayContaining(['labels', 'tasks', 'audit']))
      const live = await store().liveLabels('t1')
      expect(live).toHaveLength(1)
      expect(live[0]).toMatchObject({
        id: r.value.labelId, taskId: 't1', label: 'true', source: 'escalation', reviewer: 'ana', note: 'clear',
        supersedes: null, adjudicated: false, sessionId: ANA.sessionId
      })
      expect(live[0].at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)
      expect(hasUndefined(live)).toBe(false)
      expect((await store().getTaskSummary('t1')).version).toBe(1)
      expect(await store().counts()).toMatchObject({ labels: 1, labeledTasks: 1 })
    })

    it('refuses a stale version with a conflict carrying the current state', async () => {
      const first = await store().recordLabel({ taskId: 't1', label: 'true', source: 'escalation', reviewer: 'ana', expectedVersion: 0 }, ANA)
      const e = await rejection(
        store().recordLabel({ taskId: 't1', label: 'false', source: 'escalation', reviewer: 'bo', expectedVersion: 0 }, BO)
      )
      expect(e.code).toBe('conflict')
      const details = e.details as VersionConflictDetails
      expect(details.currentVersion).toBe(1)
      expect(details.expectedVersion).toBe(0)
      expect(details.latestLiveLabel?.id).toBe(first.value.labelId)
      expect(details.latestLiveLabel?.label).toBe('true')
      expect(await store().liveLabels('t1')).toHaveLength(1)
      expect((await store().auditTail(100)).filter((a) => a.action === 'label.record')).toHaveLength(1)
    })

    it('refuses a label that is not a candidate, and an unknown task', async () => {
      const e = await rejection(store().recordLabel({ taskId: 't1', label: 'maybe', source: 'random', reviewer: 'ana', expectedVersion: 0 }, ANA))
      expect(e.code).toBe('bad_input')
      expect(e.message).toContain('maybe')
      const missing = await rejection(store().recordLabel({ taskId: 'nope', label: 'true', source: 'random', reviewer: 'ana', expectedVersion: 0 }, ANA))
      expect(missing.code).toBe('not_found')
      expect((await store().getTaskSummary('t1')).version).toBe(0)
    })

    it('undoes by appending a superseding marker, never by deleting', async () => {
      const rec = await store().recordLabel({ taskId: 't1', label: 'true', source: 'random', reviewer: 'ana', expectedVersion: 0 }, ANA)
      const undo = await store().undoLabel({ labelId: rec.value.labelId, expectedVersion: 1 }, ANA)
      expect(undo.value).toMatchObject({ taskId: 't1', version: 2 })
      expect(undo.value.labelId).not.toBe(rec.value.labelId)
      expect(await store().liveLabels('t1')).toEqual([])
      expect(await store().counts()).toMatchObject({ labels: 0, labeledTasks: 0 })

      // Undoing it again is a conflict (already superseded); undoing the marker is bad input.
      expect((await rejection(store().undoLabel({ labelId: rec.value.labelId, expectedVersion: 2 }, ANA))).code).toBe('conflict')
      expect((await rejection(store().undoLabel({ labelId: undo.value.labelId, expectedVersion: 2 }, ANA))).code).toBe('bad_input')
      expect((await rejection(store().undoLabel({ labelId: 'no-such-label', expectedVersion: 2 }, ANA))).code).toBe('not_found')
      // A stale undo is a conflict too.
      const again = await store().recordLabel({ taskId: 't1', label: 'false', source: 'random', reviewer: 'ana', expectedVersion: 2 }, ANA)
      expect((await rejection(store().undoLabel({ labelId: again.value.labelId, expectedVersion: 2 }, ANA))).code).toBe('conflict')
      expect((await store().liveLabels('t1')).map((l) => l.label)).toEqual(['false'])
    })

    it('keeps several live labels per task (team mode) and replaces one atomically', async () => {
      const a = await store().recordLabel({ taskId: 't2', label: 'true', source: 'escalation', reviewer: 'ana', expectedVersion: 0 }, ANA)
      const b = await store().recordLabel(
        { taskId: 't2', label: 'false', source: 'escalation', reviewer: 'bo', expectedVersion: 1, adjudicated: true }, BO
      )
      expect((await store().liveLabels('t2')).map((l) => [l.reviewer, l.label, l.adjudicated])).toEqual([
        ['ana', 'true', false],
        ['bo', 'false', true]
      ])
      const replaced = await store().recordLabel(
        { taskId: 't2', label: 'false', source: 'escalation', reviewer: 'ana', expectedVersion: 2, supersedes: a.value.labelId }, ANA
      )
      const live = await store().liveLabels('t2')
      expect(live.map((l) => l.id)).toEqual([b.value.labelId, replaced.value.labelId])
      expect(live[1].supersedes).toBe(a.value.labelId)
      expect(await store().counts()).toMatchObject({ labels: 2, labeledTasks: 1 })
      // A label of another task cannot be superseded from here.
      const other = await store().recordLabel({ taskId: 't1', label: 'true', source: 'random', reviewer: 'ana', expectedVersion: 0 }, ANA)
      const e = await rejection(
        store().recordLabel({ taskId: 't2', label: 'true', source: 'escalation', reviewer: 'ana', expectedVersion: 3, supersedes: other.value.labelId }, ANA)
      )
      expect(e.code).toBe('not_found')
    })

    it('keeps a given label time, normalised to UTC', async () => {
      await store().recordLabel(
        { taskId: 't1', label: 'true', source: 'random', reviewer: 'import:l.jsonl', expectedVersion: 0, at: '2026-11-30T12:00:00Z' }, ANA
      )
      expect((await store().liveLabels('t1'))[0].at).toBe('2026-11-30T12:00:00.000Z')
      const e = await rejection(
        store().recordLabel({ taskId: 't1', label: 'true', source: 'random', reviewer: 'x', expectedVersion: 1, at: 'yesterday' }, ANA)
      )
      expect(e.code).toBe('bad_input')
    })
  })
}
