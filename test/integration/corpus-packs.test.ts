/**
 * The corpus a fit reads from tally packs is the corpus the per-task rows give: the same tasks in
 * the same (task-id) order, the same counts, seats, rounds and gold — on a real dataset, and on
 * two imports whose task ids interleave. Each import is packed once, by the first fit to read it;
 * a read-only store packs in memory and writes nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { importCommand } from '../../src/main/cli/commands/import'
import { SeatIndex, type TaskTallies } from '../../src/main/engine'
import { loadCorpus, toTaskTallies } from '../../src/main/service/fit/corpus'
import { openStore, type Store } from '../../src/main/store'
import { datasetDir } from '../../scripts/data-dir'
import { dataset, itWith } from '../helpers/prerequisites'
import { ANA, importTasks, makeTask, withTallies } from '../unit/store/fixtures'

const ZHENG = datasetDir('zheng-d-product')
const ACTOR = { reviewer: 'test', sessionId: 'test', shell: 'cli' as const }
let dir: string
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'arbiter-packs-'))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** The corpus as the per-task pages give it (the reading before packs), over `seats`. */
async function fromRows(store: Store, seats = new SeatIndex()): Promise<TaskTallies[]> {
  const labels = new Map((await store.effectiveLabels()).map((l) => [l.taskId, l.label]))
  const out: TaskTallies[] = []
  for (let after: string | null = null; ; ) {
    const page = await store.tallyPage(after, 1000)
    out.push(...page.map((t) => toTaskTallies(t, seats, labels.get(t.taskId) ?? null)))
    if (page.length < 1000) return out
    after = page[page.length - 1].taskId
  }
}

const shape = (t: TaskTallies) => [t.task, t.candidates, t.K, t.gold, t.seatIds, Array.from(t.seats), t.rounds, Array.from(t.counts), Array.from(t.vote0)]

/** The corpus made task by task, as a decide walks it, and checked against the per-task rows. */
async function expectSameCorpus(store: Store): Promise<void> {
  const seats = new SeatIndex()
  const want = (await fromRows(store, seats)).map(shape)
  const corpus = await loadCorpus(store, ACTOR)
  expect(Array.from({ length: corpus.size }, (_, i) => shape(corpus.task(i)))).toEqual(want)
  // Seats are numbered in task-id order, as when every task was made at load.
  expect(corpus.seats.ids).toEqual(seats.ids)
  expect(corpus.indexOf(want[3][0] as string)).toBe(3)
  expect(corpus.indexOf('no such task')).toBe(-1)
  expect(corpus.tasks.map(shape)).toEqual(want)
}

/** Counts each store call of `name` made through the returned store. */
function counting(store: Store, name: keyof Store): { store: Store; calls: () => number } {
  let n = 0
  const wrapped = new Proxy(store, {
    get(target, key, receiver) {
      const v = Reflect.get(target, key, receiver) as unknown
      if (key !== name || typeof v !== 'function') return v
      return (...args: unknown[]) => {
        n++
        return (v as (...a: unknown[]) => unknown).apply(target, args)
      }
    }
  })
  return { store: wrapped, calls: () => n }
}

describe('tally packs', () => {
  itWith(dataset('zheng-d-product'), 'give the per-task rows\' corpus on D_Product, are written once, and are not written by a read-only store', async () => {
    const db = join(dir, 'product.db')
    let out = ''
    const code = await importCommand.run([join(ZHENG, 'answer.csv'), '--gold', join(ZHENG, 'truth.csv'), '--db', db], { out: (t) => (out += t), err: (t) => (out += t) })
    expect(code, out).toBe(0)
    const readonly = await openStore(db, { readonly: true })
    const want = (await fromRows(readonly)).map(shape)
    expect(want).toHaveLength(8315)
    // Read-only: packed in memory, the same corpus, nothing written.
    expect((await loadCorpus(readonly, ACTOR)).tasks.map(shape)).toEqual(want)
    expect((await readonly.tallySources())[0].packedTasks).toBe(0)
    await readonly.close()

    const first = counting(await openStore(db), 'saveTallyPacks')
    const [task] = await first.store.tallyPage(null, 1)
    await first.store.recordLabel({ taskId: task.taskId, label: task.candidates[0], source: 'random', reviewer: 'ana', expectedVersion: 0 }, ANA)
    const labeled = (await fromRows(first.store)).map(shape)
    expect(labeled.filter((t) => (t[3] as number) >= 0)).toHaveLength(1)
    expect((await loadCorpus(first.store, ACTOR)).tasks.map(shape)).toEqual(labeled)
    expect(first.calls()).toBe(1)
    expect(await first.store.tallySources()).toEqual([expect.objectContaining({ tasks: 8315, packedTasks: 8315 })])
    // The next fit reads the packs: nothing is packed again.
    await expectSameCorpus(first.store)
    expect(first.calls()).toBe(1)
    expect(await first.store.integrityCheck()).toEqual({ ok: true, messages: [] })
    await first.store.close()
  })

  it('keep the task-id order across imports whose ids interleave', async () => {
    const store = await openStore(join(dir, 'interleaved.db'))
    try {
      await importTasks(store, ['a1', 'c1', 'e1'].map((id) => withTallies(makeTask(id))))
      await importTasks(store, ['b1', 'd1', 'f1'].map((id) => withTallies(makeTask(id))), 'b.trace.jsonl')
      const corpus = await loadCorpus(store, ACTOR)
      expect(corpus.tasks.map((t) => t.task)).toEqual(['a1', 'b1', 'c1', 'd1', 'e1', 'f1'])
      await expectSameCorpus(store)
      expect((await store.tallySources()).map((s) => s.packedTasks)).toEqual([3, 3])
    } finally {
      await store.close()
    }
  })
})
