import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ANA, BO, hasUndefined, importTasks, makeTask, rejection, sha } from './fixtures'
import { useStore, type MakeStore, type StoreHandle } from './store-suite'

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
      const e = await rejection(store().writeImportBatch(b.value.id, { tasks: [makeTask('t1')] }))
      expect(e.code).toBe('conflict')
      // Who is running it, where, and since when.
      expect(e.message).toContain(`import ${a.value.id} ("a.jsonl") begun by ana (electron, session session-ana) at ${a.value.createdAt}`)
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

  // A staged import belongs to the store holding its lock; once that store is gone
  // (closed here, as a killed process leaves it) the import is dead, and the next start sweeps it.
  describe('ownership of staged imports', () => {
    let handle: StoreHandle
    beforeEach(async () => {
      handle = await makeStore()
    })
    afterEach(async () => {
      await handle.cleanup()
    })

    /** An import of t1 and t2 begun and written by a store of its own (another process), left staged. */
    async function stagedElsewhere(): Promise<{ importer: Awaited<ReturnType<StoreHandle['another']>>; id: string; since: string }> {
      const importer = await handle.another()
      const begun = await importer.beginImport({ fileName: 'a.jsonl', sha256: sha('a'), kind: 'traces' }, BO)
      await importer.writeImportBatch(begun.value.id, { tasks: [makeTask('t1'), makeTask('t2')] })
      return { importer, id: begun.value.id, since: begun.value.createdAt }
    }

    it('reports a live staged import with who began it, where and since when, and leaves it alone', async () => {
      const { importer, id, since } = await stagedElsewhere()
      const sweep = await handle.store.sweepDeadImports({ importIds: [id] })
      expect(sweep.value).toEqual({ swept: [], live: [{ id, fileName: 'a.jsonl', createdBy: 'bo', shell: 'web', sessionId: 'session-bo', since }] })
      expect(sweep.topics).toEqual(['imports'])
      // A start of the same content leaves it too, and cannot write its tasks.
      const mine = await handle.store.beginImport({ fileName: 'a.jsonl', sha256: sha('a'), kind: 'traces' }, ANA)
      expect((await handle.store.existingTasks(['t1'])).map((e) => [e.importId, e.state])).toEqual([[id, 'staged']])
      expect((await rejection(handle.store.writeImportBatch(mine.value.id, { tasks: [makeTask('t1')] }))).code).toBe('conflict')
      // Its owner publishes it as usual.
      expect((await importer.publishImport(id, BO)).value.counts.tasks).toBe(2)
      expect((await handle.store.counts()).tasks).toBe(2)
    })

    it('sweeps a dead staged import of the same content when an import starts, so the retry imports the whole file', async () => {
      const { importer, id } = await stagedElsewhere()
      await importer.close() // its lock goes with it, as with a killed process
      const retry = await handle.store.beginImport({ fileName: 'a.jsonl', sha256: sha('a'), kind: 'traces' }, ANA)
      expect(await handle.store.existingTasks(['t1', 't2'])).toEqual([])
      expect(await handle.store.findImportBySha(sha('a'))).toMatchObject({ id: retry.value.id, state: 'staged' })
      const batch = await handle.store.writeImportBatch(retry.value.id, { tasks: [makeTask('t1'), makeTask('t2'), makeTask('t3')] })
      expect(batch.value).toMatchObject({ written: 3, skipped: 0 })
      await handle.store.publishImport(retry.value.id, ANA)
      expect((await handle.store.counts()).tasks).toBe(3)
      expect((await rejection(handle.store.publishImport(id, ANA))).code).toBe('not_found')
    })

    it('sweeps the dead staged imports holding named tasks, and abandoned ones, and says which', async () => {
      const { importer, id } = await stagedElsewhere()
      const other = await importer.beginImport({ fileName: 'b.jsonl', sha256: sha('b'), kind: 'traces' }, BO)
      await importer.abandonImport(other.value.id)
      await importer.close()
      const sweep = await handle.store.sweepDeadImports({ importIds: [id, other.value.id] })
      expect(sweep.value).toEqual({ swept: [id, other.value.id], live: [] })
      expect(await handle.store.existingTasks(['t1', 't2'])).toEqual([])
      expect((await handle.store.sweepDeadImports('all')).value).toEqual({ swept: [], live: [] })
      expect((await rejection(handle.store.sweepDeadImports({ importIds: [''] }))).code).toBe('bad_input')
      expect((await rejection(handle.store.sweepDeadImports({ sha256: 'nope' }))).code).toBe('bad_input')
      expect((await rejection(handle.store.sweepDeadImports(null as unknown as 'all'))).code).toBe('bad_input')
    })

    it('refuses the publish of an import whose lock was lost and that another process swept: "was taken over"', async () => {
      const { importer, id } = await stagedElsewhere()
      await handle.loseImportLock(id)
      expect((await handle.store.sweepDeadImports({ importIds: [id] })).value.swept).toEqual([id])
      const e = await rejection(importer.publishImport(id, BO))
      expect(e.code).toBe('conflict')
      expect(e.message).toContain(`import ${id} was taken over`)
      expect((await handle.store.counts()).tasks).toBe(0)
      expect(await handle.store.auditTail(10)).toEqual([])
      // The file imports again, whole.
      expect(await importTasks(handle.store, [makeTask('t1'), makeTask('t2')], 'a.jsonl')).toEqual(expect.any(String))
      expect((await handle.store.counts()).tasks).toBe(2)
    })

    it('refuses to publish a staged import this store does not own', async () => {
      const { importer, id } = await stagedElsewhere()
      const e = await rejection(handle.store.publishImport(id, ANA))
      expect(e.code).toBe('conflict')
      expect(e.message).toContain(`import ${id} was taken over: this process does not hold its lock`)
      expect((await importer.publishImport(id, BO)).value.state).toBe('published')
    })
  })
}
