/**
 * Everything a fit reads, loaded from the stored tallies (never from moves): each published task's
 * TaskTallies over one SeatIndex, with its effective human label as gold. Tasks imported before
 * tallies existed are backfilled first, once.
 */
import type { Trace } from '../../../shared/trace'
import { SeatIndex, type TaskTallies } from '../../engine'
import type { Actor, EffectiveLabel, StoredTallies, Store, TaskTrace } from '../../store'
import { compareIds, decodeTallyPack, encodeTallyPack, PACK_TASKS, type PackedTallies, type TallyPackRow } from '../../store/tally-pack'
import { talliesOf as computeTallies } from '../import/task-input'


export interface Corpus {
  seats: SeatIndex
  /** Every published task with tallies, in task-id order; gold = its effective label (−1: none). */
  tasks: TaskTallies[]
  byId: Map<string, TaskTallies>
  labels: Map<string, EffectiveLabel>
}

/**
 * Per-array derivations, shared by every task whose store page shares the array (a million tasks
 * of one council have a handful of candidate lists and seat lists between them).
 */
const candKeys = new WeakMap<readonly string[], string>()
const seatIndexes = new WeakMap<SeatIndex, WeakMap<readonly string[], Int32Array>>()

function candKeyOf(candidates: readonly string[]): string {
  let k = candKeys.get(candidates)
  if (k === undefined) candKeys.set(candidates, (k = candidates.join('\u0001')))
  return k
}

function seatsOf(seatIds: readonly string[], seats: SeatIndex): Int32Array {
  let byList = seatIndexes.get(seats)
  if (byList === undefined) seatIndexes.set(seats, (byList = new WeakMap()))
  let a = byList.get(seatIds)
  if (a === undefined) byList.set(seatIds, (a = Int32Array.from(seatIds, (id) => seats.index(id))))
  return a
}

/** Stored tallies → the engine's TaskTallies (ENGINE.md §2 layout), with `label` as gold. */
export function toTaskTallies(s: PackedTallies, seats: SeatIndex, label: string | null): TaskTallies {
  return {
    task: s.taskId,
    candidates: s.candidates,
    K: s.K,
    candKey: candKeyOf(s.candidates),
    gold: label === null ? -1 : s.candidates.indexOf(label),
    S: s.seatIds.length,
    seatIds: s.seatIds,
    seats: seatsOf(s.seatIds, seats),
    R: s.rounds.length,
    rounds: s.rounds,
    counts: s.counts,
    vote0: s.vote0
  }
}

export function traceOf(t: TaskTrace): Trace {
  return {
    task: t.id,
    candidates: t.candidates,
    moves: t.moves.map((m) => ({
      id: m.id,
      round: m.round,
      seat: m.seat,
      force: m.force,
      ...(m.answer === null ? {} : { answer: m.answer }),
      ...(m.target === null ? {} : { target: m.target })
    }))
  }
}

/** Computes and stores tallies for tasks that have none (databases from before migration 0002). */
export async function backfillTallies(store: Store, actor: Actor): Promise<number> {
  let total = 0
  for (;;) {
    const missing = await store.tasksWithoutTallies(2000)
    if (missing.length === 0) return total
    await store.saveTallies(missing.map((t) => ({ taskId: t.id, tallies: computeTallies(traceOf(t)) })), actor)
    total += missing.length
  }
}

/**
 * Packs a published import's tallies (store/tally-pack.ts), pages of the per-task rows in, one
 * write out (another process may have packed it meanwhile: then its packs are read instead). A
 * read-only store (a report, an audit) packs in memory only.
 */
async function packImport(store: Store, importId: string, save: boolean): Promise<TallyPackRow[] | null> {
  const packs: TallyPackRow[] = []
  let after: string | null = null
  for (;;) {
    const page: StoredTallies[] = await store.importTallyPage(importId, after, PACK_TASKS)
    if (page.length === 0) break
    packs.push(encodeTallyPack(page))
    if (page.length < PACK_TASKS) break
    after = page[page.length - 1].taskId
  }
  if (!save) return packs
  const written = await store.saveTallyPacks(importId, packs)
  return written.value === 0 ? null : packs
}

/** Every published task's tallies, import by import, pack by pack (each import packed on first use). */
async function readPacks(store: Store, onPage: (n: number) => void): Promise<PackedTallies[][]> {
  const out: PackedTallies[][] = []
  let n = 0
  const save = !(await store.info()).readonly
  for (const source of await store.tallySources()) {
    const built = source.packedTasks === 0 ? await packImport(store, source.importId, save) : null
    let held = 0
    for (let part = 0; ; part++) {
      const row = built === null ? await store.tallyPack(source.importId, part) : (built[part] ?? null)
      if (row === null) break
      const pack = decodeTallyPack(row, `${source.importId}#${part}`)
      held += pack.length
      out.push(pack)
      onPage((n += pack.length))
    }
    if (held !== source.tasks) throw new Error(`the tally packs of import ${source.importId} hold ${held} of its ${source.tasks} tasks`)
  }
  return out
}

/**
 * The packs in task-id order, as the per-task pages gave them (folds and the EM pool follow this
 * order): imports whose id ranges do not interleave are laid end to end; otherwise sorted.
 */
function inIdOrder(packs: PackedTallies[][]): PackedTallies[] {
  const sorted = [...packs].sort((a, b) => compareIds(a[0].taskId, b[0].taskId))
  const disjoint = sorted.every((p, i) => i === 0 || compareIds(sorted[i - 1][sorted[i - 1].length - 1].taskId, p[0].taskId) < 0)
  const all = sorted.flat()
  return disjoint ? all : all.sort((a, b) => compareIds(a.taskId, b.taskId))
}

export async function loadCorpus(store: Store, actor: Actor, onPage: (n: number) => void = () => {}): Promise<Corpus> {
  await backfillTallies(store, actor)
  const labels = new Map((await store.effectiveLabels()).map((l) => [l.taskId, l]))
  const seats = new SeatIndex()
  const tasks = inIdOrder(await readPacks(store, onPage)).map((p) => toTaskTallies(p, seats, labels.get(p.taskId)?.label ?? null))
  return { seats, tasks, byId: new Map(tasks.map((t) => [t.task, t])), labels }
}
