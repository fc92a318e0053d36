import { beforeEach, describe, expect, it } from 'vitest'
import type { TallyInput, TallyPackRow } from '../../../src/main/store'
import { decodeTallyPack, encodeTallyPack, unpack } from '../../../src/main/store/tally-pack'
import { ANA, BO, hasUndefined, importTasks, makeTask, rejection, sha, withTallies } from './fixtures'
import { useStore, type MakeStore } from './store-suite'

/** Tallies whose arrays are views at a non-zero offset of a larger buffer, like the engine's slab. */
function slabTallies(): TallyInput {
  const slab = new Int32Array(64).fill(99)
  const K = 2
  const S = 2
  const R = 2
  const counts = new Int32Array(slab.buffer, 4 * 3, R * S * (2 * K + 2))
  counts.forEach((_, i) => (counts[i] = i - 3))
  const vote0 = new Int32Array(slab.buffer, 4 * 40, S)
  vote0.set([1, -1])
  return { K, seatIds: ['A1', 'A2'], rounds: [0, 2], counts, vote0, socialP1: 0.5 }
}

export function defineTallyTests(makeStore: MakeStore): void {
  describe('tallies', () => {
    const store = useStore(makeStore)

    it('stores a task’s tallies with it and reads exactly the views back (not their buffers)', async () => {
      const tallies = slabTallies()
      await importTasks(store(), [{ ...makeTask('t1'), tallies }, withTallies(makeTask('t2'))])
      const page = await store().tallyPage(null, 10)
      expect(page.map((t) => t.taskId)).toEqual(['t1', 't2'])
      expect(page[0]).toMatchObject({ taskId: 't1', K: 2, seatIds: ['A1', 'A2'], rounds: [0, 2], socialP1: 0.5, candidates: ['true', 'false'], group: 'G1' })
      expect(Array.from(page[0].counts)).toEqual(Array.from(tallies.counts))
      expect(Array.from(page[0].vote0)).toEqual([1, -1])
      expect(page[0].counts).toBeInstanceOf(Int32Array)
      // keyset paging
      expect((await store().tallyPage('t1', 10)).map((t) => t.taskId)).toEqual(['t2'])
      expect((await store().loadTallies(['t2', 'nope', 't1'])).map((t) => t.taskId)).toEqual(['t2', 't1'])
    })

    it('packs a published import\'s tallies once, all parts together, and reads each part back', async () => {
      const tasks = ['t1', 't2', 't3'].map((id) => withTallies(makeTask(id)))
      await importTasks(store(), tasks)
      const [source] = await store().tallySources()
      expect(source).toMatchObject({ tasks: 3, packedTasks: 0 })
      const page = await store().importTallyPage(source.importId, null, 10)
      expect(page.map((t) => t.taskId)).toEqual(['t1', 't2', 't3'])
      expect((await store().importTallyPage(source.importId, 't1', 10)).map((t) => t.taskId)).toEqual(['t2', 't3'])
      const packs = [encodeTallyPack(page.slice(0, 2)), encodeTallyPack(page.slice(2))]
      // Not the import's tasks exactly once: refused, nothing written.
      expect((await rejection(store().saveTallyPacks(source.importId, packs.slice(0, 1)))).code).toBe('bad_input')
      expect((await rejection(store().saveTallyPacks(source.importId, [packs[1], packs[0]]))).code).toBe('bad_input')
      expect((await rejection(store().saveTallyPacks('ghost', packs))).code).toBe('not_found')
      expect((await store().saveTallyPacks(source.importId, packs)).value).toBe(2)
      // Another packer that comes second writes nothing.
      expect((await store().saveTallyPacks(source.importId, packs)).value).toBe(0)
      expect(await store().tallySources()).toEqual([{ importId: source.importId, tasks: 3, packedTasks: 3 }])
      const back = [0, 1].map(async (part) => unpack(decodeTallyPack((await store().tallyPack(source.importId, part)) as TallyPackRow, `part ${part}`)))
      const decoded = (await Promise.all(back)).flat()
      expect(await store().tallyPack(source.importId, 2)).toBeNull()
      expect(decoded.map((t) => t.taskId)).toEqual(['t1', 't2', 't3'])
      decoded.forEach((t, i) => {
        expect(Array.from(t.counts)).toEqual(Array.from(page[i].counts))
        expect(Array.from(t.vote0)).toEqual(Array.from(page[i].vote0))
        expect([t.K, t.candidates, t.seatIds, t.rounds]).toEqual([page[i].K, page[i].candidates, page[i].seatIds, page[i].rounds])
      })
    })

    it('packs only a published import', async () => {
      const begun = await store().beginImport({ fileName: 'a', sha256: sha('staged'), kind: 'traces' }, ANA)
      await store().writeImportBatch(begun.value.id, { tasks: [withTallies(makeTask('s1'))] })
      expect(await store().tallySources()).toEqual([])
      expect((await rejection(store().saveTallyPacks(begun.value.id, []))).code).toBe('not_found')
    })

    it('refuses tallies whose shape does not fit the task, writing nothing', async () => {
      const bad = { ...slabTallies(), counts: new Int32Array(3) }
      const begun = await store().beginImport({ fileName: 'a', sha256: sha('a'), kind: 'traces' }, ANA)
      expect((await rejection(store().writeImportBatch(begun.value.id, { tasks: [{ ...makeTask('t1'), tallies: bad }] }))).code).toBe('bad_input')
      const wrongK = { ...slabTallies(), K: 3 }
      expect((await rejection(store().writeImportBatch(begun.value.id, { tasks: [{ ...makeTask('t1'), tallies: wrongK }] }))).code).toBe('bad_input')
    })

    it('lists tasks without tallies (with their moves) and backfills them once, audited', async () => {
      await importTasks(store(), [makeTask('t1'), withTallies(makeTask('t2'))])
      const missing = await store().tasksWithoutTallies(10)
      expect(missing.map((t) => t.id)).toEqual(['t1'])
      expect(missing[0].moves.map((m) => m.id)).toEqual(['m1', 'm2', 'm3', 'm4'])
      expect(missing[0].moves[1].raw).toEqual({ extra: 1 })
      expect(missing[0].models).toEqual({ A1: 'gemma-3-27b-it', A2: 'phi-4', A3: null })
      expect(hasUndefined(missing)).toBe(false)
      const t1 = withTallies(makeTask('t1')).tallies as TallyInput
      const saved = await store().saveTallies([{ taskId: 't1', tallies: t1 }, { taskId: 't2', tallies: t1 }], BO)
      expect(saved.value).toBe(1) // t2 already had its own
      expect(await store().tasksWithoutTallies(10)).toEqual([])
      expect((await store().auditTail(1))[0]).toMatchObject({ action: 'tallies.backfill', details: { tasks: 1 } })
      expect((await rejection(store().saveTallies([{ taskId: 'ghost', tallies: t1 }], BO))).code).toBe('not_found')
    })

    it('reports existing tasks and declared seat models before an import writes', async () => {
      await importTasks(store(), [makeTask('t1')])
      const staged = await store().beginImport({ fileName: 'b.jsonl', sha256: sha('b'), kind: 'traces' }, ANA)
      await store().writeImportBatch(staged.value.id, { tasks: [makeTask('t2')] })
      const found = await store().existingTasks(['t1', 't2', 'nope'])
      expect(found.map((e) => [e.taskId, e.state, e.fileName, e.candidates])).toEqual([
        ['t1', 'published', 'a.trace.jsonl', ['true', 'false']],
        ['t2', 'staged', 'b.jsonl', ['true', 'false']]
      ])
      expect(found[0].contentSha256).toBe(makeTask('t1').contentSha256)
      expect(await store().seatModels()).toEqual({ A1: 'gemma-3-27b-it', A2: 'phi-4' })
    })
  })

  describe('effective labels and bulk labels', () => {
    const store = useStore(makeStore)
    beforeEach(async () => {
      await importTasks(store(), [makeTask('t1'), makeTask('t2'), makeTask('t3', { gold: null })])
    })

    it('picks each task’s latest live label, an adjudicated one first', async () => {
      const s = store()
      await s.recordLabel({ taskId: 't1', label: 'true', source: 'random', reviewer: 'ana', expectedVersion: 0 }, ANA)
      await s.recordLabel({ taskId: 't1', label: 'false', source: 'escalation', reviewer: 'bo', expectedVersion: 1, adjudicated: true }, BO)
      await s.recordLabel({ taskId: 't1', label: 'true', source: 'escalation', reviewer: 'cy', expectedVersion: 2 }, ANA)
      const r2 = await s.recordLabel({ taskId: 't2', label: 'false', source: 'random', reviewer: 'ana', expectedVersion: 0 }, ANA)
      await s.undoLabel({ labelId: r2.value.labelId, expectedVersion: 1 }, ANA)
      const eff = await s.effectiveLabels()
      expect(eff.map((l) => [l.taskId, l.label, l.source, l.reviewer])).toEqual([['t1', 'false', 'escalation', 'bo']])
    })

    it('imports a label file in one transaction, bumping versions; refuses unknown tasks and non-candidates', async () => {
      const s = store()
      const rows = [
        { taskId: 't1', label: 'true', source: 'random' as const, reviewer: 'ana', at: '2026-11-30T12:00:00Z', note: 'n' },
        { taskId: 't1', label: 'false', source: 'escalation' as const, reviewer: 'bo', at: '2026-11-30T13:00:00Z', note: null },
        { taskId: 't2', label: 'false', source: 'random' as const, reviewer: 'ana', at: '2026-11-30T12:00:00Z', note: null }
      ]
      const imp = await s.importLabels({ fileName: 'l.jsonl', sha256: sha('l'), kind: 'labels', labels: rows }, ANA)
      expect(imp.value).toMatchObject({ kind: 'labels', state: 'published', counts: { tasks: 2, labels: 3 } })
      expect(imp.topics).toEqual(expect.arrayContaining(['labels', 'imports', 'audit']))
      expect((await s.getTaskSummary('t1')).version).toBe(1)
      expect((await s.liveLabels('t1')).map((l) => [l.label, l.at, l.note])).toEqual([['true', '2026-11-30T12:00:00.000Z', 'n'], ['false', '2026-11-30T13:00:00.000Z', null]])
      expect((await s.findImportBySha(sha('l')))?.id).toBe(imp.value.id)
      expect((await s.listImports(10)).map((i) => i.kind)).toEqual(['labels', 'traces'])

      const before = await s.counts()
      expect((await rejection(s.importLabels({ fileName: 'x', sha256: sha('x'), kind: 'labels', labels: [rows[2], { ...rows[0], taskId: 'ghost' }] }, ANA))).code).toBe('not_found')
      expect((await rejection(s.importLabels({ fileName: 'x', sha256: sha('x'), kind: 'labels', labels: [{ ...rows[0], label: 'maybe' }] }, ANA))).code).toBe('bad_input')
      expect(await s.counts()).toEqual(before)
      expect(await s.findImportBySha(sha('x'))).toBeNull()
    })

    it('records gold as labels when an import is published with goldAs, in the same transaction', async () => {
      const s = store()
      const begun = await s.beginImport({ fileName: 'g.jsonl', sha256: sha('g'), kind: 'traces' }, ANA)
      await s.writeImportBatch(begun.value.id, { tasks: [makeTask('g1', { gold: 'false' }), makeTask('g2', { gold: null })] })
      const pub = await s.publishImport(begun.value.id, ANA, { goldAs: { source: 'random', reviewer: 'import:g.jsonl' } })
      expect(pub.value.counts.labels).toBe(1)
      expect((await s.liveLabels('g1')).map((l) => [l.label, l.source, l.reviewer])).toEqual([['false', 'random', 'import:g.jsonl']])
      expect((await s.getTaskSummary('g1')).version).toBe(1)
      expect(await s.liveLabels('g2')).toEqual([])
      expect((await s.auditTail(1))[0].details).toMatchObject({ goldAs: { source: 'random', labels: 1 } })
    })
  })
}
