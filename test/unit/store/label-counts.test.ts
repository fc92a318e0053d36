/**
 * `labelCounts` (the audit's labels by reviewer): live labels per reviewer and source; an undone
 * or replaced label counts as superseded; undo markers are not labels and are not counted.
 */
import { describe, expect, it } from 'vitest'
import { openStore } from '../../../src/main/store'
import { ANA, BO, importTasks, makeTask } from './fixtures'
import { useTempDir } from './sqlite-helpers'

const tmp = useTempDir()

describe('labelCounts', () => {
  it('counts live and superseded labels per reviewer and source', async () => {
    const store = await openStore(tmp.dbLocation())
    try {
      expect(await store.labelCounts()).toEqual([])
      await importTasks(store, [makeTask('t1'), makeTask('t2'), makeTask('t3')])
      const a = await store.recordLabel({ taskId: 't1', label: 'true', source: 'random', reviewer: 'ana', expectedVersion: 0 }, ANA)
      const undone = await store.undoLabel({ labelId: a.value.labelId, expectedVersion: a.value.version }, ANA)
      await store.recordLabel({ taskId: 't1', label: 'false', source: 'random', reviewer: 'ana', expectedVersion: undone.value.version }, ANA)
      const b = await store.recordLabel({ taskId: 't2', label: 'true', source: 'escalation', reviewer: 'bo', expectedVersion: 0 }, BO)
      // A replacement (a label that supersedes another) retires the old one without an undo marker.
      await store.recordLabel({ taskId: 't2', label: 'false', source: 'escalation', reviewer: 'ana', expectedVersion: b.value.version, supersedes: b.value.labelId }, ANA)
      await store.recordLabel({ taskId: 't3', label: 'true', source: 'escalation', reviewer: 'ana', expectedVersion: 0 }, ANA)
      expect(await store.labelCounts()).toEqual([
        { reviewer: 'ana', source: 'escalation', live: 2, superseded: 0 },
        { reviewer: 'ana', source: 'random', live: 1, superseded: 1 },
        { reviewer: 'bo', source: 'escalation', live: 0, superseded: 1 }
      ])
    } finally {
      await store.close()
    }
  })
})
