/**
 * Everything a fit reads, loaded from the stored tallies (never from moves): each published task's
 * TaskTallies over one SeatIndex, with its effective human label as gold. Tasks imported before
 * tallies existed are backfilled first, once.
 *
 * The corpus keeps the tally packs as read (columns and one buffer per pack) and makes a task's
 * TaskTallies when it is asked for: a decide walks a million tasks a page at a time, and a
 * million long-lived objects (about 600 MB, marked by every full collection) are what made its
 * memory peak and much of its time. `tasks` makes them all, once, for the callers that need every
 * task at once (the EM pool, the audit).
 */
import type { Trace } from '../../../shared/trace'
import { SeatIndex, type TaskTallies } from '../../engine'
import type { Actor, EffectiveLabel, StoredTallies, Store, TallyPackRow, TaskTrace } from '../../store'
import { compareIds, decodeTallyPack, encodeTallyPack, PACK_TASKS, packedAt, type DecodedPack, type PackedTallies } from '../../store/tally-pack'
import { talliesOf } from '../import/task-input'
import { fitLabels } from './fit-labels'


export interface Corpus {
  seats: SeatIndex
  labels: Map<string, EffectiveLabel>
  /** How many published tasks have tallies. */
  readonly size: number
  /** Task `i` in task-id order; gold = its effective label (−1: none). Made on demand unless `tasks` was read. */
  task(i: number): TaskTallies
  /** The position of a task id, or −1. */
  indexOf(taskId: string): number
  /** 1 + the last round any task reached (the engine's `roundsOf` over every task). */
  readonly roundCount: number
  /** Each task's K (how many candidates), without making the tasks. */
  candidateCounts(): Iterable<number>
  /** Every task, in task-id order (made once, kept: memory grows with the tasks). */
  readonly tasks: TaskTallies[]
  /** The same tasks by id (made with `tasks`). */
  readonly byId: Map<string, TaskTallies>
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

/** Stored tallies → the engine's TaskTallies (docs/engine.md §2 layout), with `label` as gold. */
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
    await store.saveTallies(missing.map((t) => ({ taskId: t.id, tallies: talliesOf(traceOf(t)) })), actor)
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
async function readPacks(store: Store, onPage: (n: number) => void): Promise<DecodedPack[]> {
  const out: DecodedPack[] = []
  let n = 0
  const save = !(await store.info()).readonly
  for (const source of await store.tallySources()) {
    const built = source.packedTasks === 0 ? await packImport(store, source.importId, save) : null
    let held = 0
    for (let part = 0; ; part++) {
      const row = built === null ? await store.tallyPack(source.importId, part) : (built[part] ?? null)
      if (row === null) break
      const pack = decodeTallyPack(row, `${source.importId}#${part}`)
      held += pack.ids.length
      out.push(pack)
      onPage((n += pack.ids.length))
    }
    if (held !== source.tasks) throw new Error(`the tally packs of import ${source.importId} hold ${held} of its ${source.tasks} tasks`)
  }
  return out
}

type Order = { packs: DecodedPack[]; packOf: Int32Array; slotOf: Int32Array; disjoint: boolean }

/**
 * Position i → (pack, slot) in task-id order, as the per-task pages gave them (folds and the EM
 * pool follow this order): packs whose id ranges do not interleave are laid end to end,
 * otherwise every task is sorted.
 */
function idOrder(packs: DecodedPack[]): Order {
  const sorted = packs.filter((p) => p.ids.length > 0).sort((a, b) => compareIds(a.ids[0], b.ids[0]))
  const size = sorted.reduce((n, p) => n + p.ids.length, 0)
  const packOf = new Int32Array(size)
  const slotOf = new Int32Array(size)
  let i = 0
  sorted.forEach((p, k) => {
    for (let j = 0; j < p.ids.length; j++, i++) [packOf[i], slotOf[i]] = [k, j]
  })
  const disjoint = sorted.every((p, k) => k === 0 || compareIds(sorted[k - 1].ids[sorted[k - 1].ids.length - 1], p.ids[0]) < 0)
  if (!disjoint) {
    const order = Array.from({ length: size }, (_, x) => x).sort((x, y) => compareIds(sorted[packOf[x]].ids[slotOf[x]], sorted[packOf[y]].ids[slotOf[y]]))
    const [p2, s2] = [Int32Array.from(order, (x) => packOf[x]), Int32Array.from(order, (x) => slotOf[x])]
    packOf.set(p2)
    slotOf.set(s2)
  }
  return { packs: sorted, packOf, slotOf, disjoint }
}

class PackedCorpus implements Corpus {
  readonly seats = new SeatIndex()
  readonly size: number
  private made: TaskTallies[] | null = null
  private index: Map<string, TaskTallies> | null = null

  constructor(
    readonly labels: Map<string, EffectiveLabel>,
    private readonly order: Order
  ) {
    this.size = order.packOf.length
    // Seats get their global index in task-id order, as when every task was made at load: a
    // pack lists its seat lists in the order its tasks first use them.
    if (order.disjoint) for (const p of order.packs) for (const list of p.seats) seatsOf(list, this.seats)
    else for (let i = 0; i < this.size; i++) this.seatsAt(i)
  }

  private seatsAt(i: number): void {
    const p = this.order.packs[this.order.packOf[i]]
    seatsOf(p.seats[p.lists[3 * this.order.slotOf[i] + 1]], this.seats)
  }

  task(i: number): TaskTallies {
    if (this.made !== null) return this.made[i]
    const s = packedAt(this.order.packs[this.order.packOf[i]], this.order.slotOf[i])
    return toTaskTallies(s, this.seats, this.labels.get(s.taskId)?.label ?? null)
  }

  idAt(i: number): string {
    return this.order.packs[this.order.packOf[i]].ids[this.order.slotOf[i]]
  }

  indexOf(taskId: string): number {
    let lo = 0
    let hi = this.size - 1
    while (lo <= hi) {
      const mid = (lo + hi) >> 1
      const c = compareIds(this.idAt(mid), taskId)
      if (c === 0) return mid
      if (c < 0) lo = mid + 1
      else hi = mid - 1
    }
    return -1
  }

  *candidateCounts(): Iterable<number> {
    for (const p of this.order.packs) for (let j = 0; j < p.ids.length; j++) yield p.candidates[p.lists[3 * j]].length
  }

  get roundCount(): number {
    let top = 0
    for (const p of this.order.packs) for (const r of p.rounds) if (r.length > 0 && r[r.length - 1] > top) top = r[r.length - 1]
    return top + 1
  }

  get tasks(): TaskTallies[] {
    if (this.made === null) this.made = Array.from({ length: this.size }, (_, i) => this.task(i))
    return this.made
  }

  get byId(): Map<string, TaskTallies> {
    this.index ??= new Map(this.tasks.map((t) => [t.task, t]))
    return this.index
  }
}

export async function loadCorpus(store: Store, actor: Actor, onPage: (n: number) => void = () => {}): Promise<Corpus> {
  await backfillTallies(store, actor)
  const labels = new Map((await fitLabels(store)).map((l) => [l.taskId, l]))
  return new PackedCorpus(labels, idOrder(await readPacks(store, onPage)))
}
