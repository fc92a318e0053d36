import { describe, expect, it } from 'vitest'
import { ANA, hasUndefined, importTasks, makeTask, rejection, sha } from './fixtures'
import { useStore, type MakeStore } from './store-suite'

export function defineImportTests(makeStore: MakeStore): void {
  describe('imports', () => {
    const store = useStore(makeStore)

    it('keeps a staged import invisible until it is published', async () => {
      const begun = await store().beginImport({ fileName: 'a.jsonl', sha256: sha('a'), kind: 'traces' }, ANA)
      expect(begun.value.state).toBe('staged')
      expect(begun.topics).toEqual(['imports'])
      const batch = await store().writeImportBatch(begun.value.id, { tasks: [makeTask('t1'), makeTask('t2')] })
      expect(batch.value).toEqual({ written: 2, skipped: 0, moves: 8, seats: 3 })
      const more = await store().writeImportBatch(begun.value.id, { tasks: [makeTask('t3')], seats: [{ id: 'A9', model: null }] })
      expect(more.value).toEqual({ written: 1, skipped: 0, moves: 4, seats: 1 })

      expect((await store().counts()).tasks).toBe(0)
      expect((await store().counts()).moves).toBe(0)
      expect((await rejection(store().getTaskSummary('t1'))).code).toBe('not_found')

      const published = await store().publishImport(begun.value.id, ANA)
      expect(published.value.state).toBe('published')
      expect(published.value.publishedAt).not.toBeNull()
      expect(published.value.counts).toEqual({ tasks: 3, skipped: 0, moves: 12, seats: 4, labels: 0 })
      expect(published.topics).toEqual(expect.arrayContaining(['imports', 'tasks', 'audit']))
      const counts = await store().counts()
      expect(counts).toMatchObject({ tasks: 3, moves: 12, seats: 4 })
      const summary = await store().getTaskSummary('t1')
      expect(summary).toEqual({
        id: 't1', question: 'Is claim t1 true?', candidates: ['true', 'false'], group: 'G1', version: 0, liveLabels: []
      })
      expect(summary).not.toHaveProperty('gold')
    })

    it('finds a file by sha256 and makes re-importing the same content a no-op', async () => {
      const first = await importTasks(store(), [makeTask('t1'), makeTask('t2')], 'a.jsonl')
      const found = await store().findImportBySha(sha('a.jsonl' + [makeTask('t1'), makeTask('t2')].map((t) => t.contentSha256).join()))
      expect(found?.id).toBe(first)
      expect(found?.state).toBe('published')
      expect(hasUndefined(found)).toBe(false)
      expect(await store().findImportBySha(sha('never imported'))).toBeNull()

      const again = await store().beginImport({ fileName: 'b.jsonl', sha256: sha('b'), kind: 'traces' }, ANA)
      const batch = await store().writeImportBatch(again.value.id, { tasks: [makeTask('t1'), makeTask('t2'), makeTask('t3')] })
      expect(batch.value).toMatchObject({ written: 1, skipped: 2 })
      await store().publishImport(again.value.id, ANA)
      expect((await store().counts()).tasks).toBe(3)
    })

    it('refuses a changed task with an error naming both imports, writing nothing of the batch', async () => {
      const first = await importTasks(store(), [makeTask('t1')], 'first.jsonl')
      const second = await store().beginImport({ fileName: 'second.jsonl', sha256: sha('2'), kind: 'traces' }, ANA)
      const e = await rejection(
        store().writeImportBatch(second.value.id, { tasks: [makeTask('t2'), makeTask('t1', { variant: 'edited' })] })
      )
      expect(e.code).toBe('bad_input')
      expect(e.message).toContain(first)
      expect(e.message).toContain(second.value.id)
      expect(e.message).toContain('first.jsonl')
      expect(e.message).toContain('second.jsonl')
      expect(e.details).toMatchObject({ taskId: 't1', existingImportId: first, importId: second.value.id })
      await store().publishImport(second.value.id, ANA)
      expect((await store().counts()).tasks).toBe(1) // t2 was rolled back with the failed batch
    })

    it('refuses a task that another staged import is writing', async () => {
      const a = await store().beginImport({ fileName: 'a.jsonl', sha256: sha('a'), kind: 'traces' }, ANA)
      const b = await store().beginImport({ fileName: 'b.jsonl', sha256: sha('b'), kind: 'traces' }, ANA)
      await store().writeImportBatch(a.value.id, { tasks: [makeTask('t1')] })
      expect((await rejection(store().writeImportBatch(b.value.id, { tasks: [makeTask('t1')] }))).code).toBe('conflict')
    })

    it('hides an abandoned import and lets its tasks be imported again', async () => {
      const a = await store().beginImport({ fileName: 'a.jsonl', sha256: sha('a'), kind: 'traces' }, ANA)
      await store().writeImportBatch(a.value.id, { tasks: [makeTask('t1')] })
      const abandoned = await store().abandonImport(a.value.id)
      expect(abandoned.value.state).toBe('abandoned')
      expect(await store().findImportBySha(sha('a'))).toBeNull()
      expect((await rejection(store().publishImport(a.value.id, ANA))).code).toBe('conflict')
      expect((await rejection(store().writeImportBatch(a.value.id, { tasks: [] }))).code).toBe('conflict')
      expect((await store().counts()).tasks).toBe(0)

      await importTasks(store(), [makeTask('t1', { variant: 'retry' })], 'a.jsonl')
      expect((await store().getTaskSummary('t1')).question).toBe('Is claim t1 true? (retry)')
    })

    it('keeps publishing final and reports unknown imports', async () => {
      const id = await importTasks(store(), [makeTask('t1')])
      expect((await rejection(store().publishImport(id, ANA))).code).toBe('conflict')
      expect((await rejection(store().abandonImport(id))).code).toBe('conflict')
      expect((await rejection(store().writeImportBatch(id, { tasks: [] }))).code).toBe('conflict')
      expect((await rejection(store().publishImport('no-such-import', ANA))).code).toBe('not_found')
      expect((await rejection(store().writeImportBatch('no-such-import', { tasks: [] }))).code).toBe('not_found')
    })

    it('validates the task shape and seat identity', async () => {
      const a = await store().beginImport({ fileName: 'a.jsonl', sha256: sha('a'), kind: 'traces' }, ANA)
      const gold = { ...makeTask('t1'), gold: 'maybe' }
      expect((await rejection(store().writeImportBatch(a.value.id, { tasks: [gold] }))).code).toBe('bad_input')
      const dupMoves = makeTask('t1')
      dupMoves.moves[1] = { ...dupMoves.moves[1], id: 'm1' }
      expect((await rejection(store().writeImportBatch(a.value.id, { tasks: [dupMoves] }))).code).toBe('bad_input')
      expect((await rejection(store().beginImport({ fileName: 'x', sha256: 'nope', kind: 'traces' }, ANA))).code).toBe('bad_input')

      await store().writeImportBatch(a.value.id, { tasks: [makeTask('t1')] })
      await store().publishImport(a.value.id, ANA)
      const b = await store().beginImport({ fileName: 'b.jsonl', sha256: sha('b'), kind: 'traces' }, ANA)
      const otherModel = { ...makeTask('t2'), seats: [{ id: 'A1', model: 'another-model' }] }
      const e = await rejection(store().writeImportBatch(b.value.id, { tasks: [otherModel] }))
      expect(e.code).toBe('bad_input')
      expect(e.message).toContain('A1')
    })
  })
}
