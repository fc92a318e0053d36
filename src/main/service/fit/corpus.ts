/**
 * Everything a fit reads, loaded from the stored tallies (never from moves): each published task's
 * TaskTallies over one SeatIndex, with its effective human label as gold. Tasks imported before
 * tallies existed are backfilled first, once.
 */
import type { Trace } from '../../../shared/trace'
import { SeatIndex, type TaskTallies } from '../../engine'
import type { Actor, EffectiveLabel, StoredTallies, Store, TaskTrace } from '../../store'
import { talliesOf as computeTallies } from '../import/task-input'

const PAGE = 20_000

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
const candKeys = new WeakMap<string[], string>()
const seatIndexes = new WeakMap<SeatIndex, WeakMap<string[], Int32Array>>()

function candKeyOf(candidates: string[]): string {
  let k = candKeys.get(candidates)
  if (k === undefined) candKeys.set(candidates, (k = candidates.join('\u0001')))
  return k
}

function seatsOf(seatIds: string[], seats: SeatIndex): Int32Array {
  let byList = seatIndexes.get(seats)
  if (byList === undefined) seatIndexes.set(seats, (byList = new WeakMap()))
  let a = byList.get(seatIds)
  if (a === undefined) byList.set(seatIds, (a = Int32Array.from(seatIds, (id) => seats.index(id))))
  return a
}

/** StoredTallies → the engine's TaskTallies (ENGINE.md §2 layout), with `label` as gold. */
export function toTaskTallies(s: StoredTallies, seats: SeatIndex, label: string | null): TaskTallies {
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

export async function loadCorpus(store: Store, actor: Actor, onPage: (n: number) => void = () => {}): Promise<Corpus> {
  await backfillTallies(store, actor)
  const labels = new Map((await store.effectiveLabels()).map((l) => [l.taskId, l]))
  const seats = new SeatIndex()
  const tasks: TaskTallies[] = []
  let after: string | null = null
  for (;;) {
    const page: StoredTallies[] = await store.tallyPage(after, PAGE)
    for (const s of page) tasks.push(toTaskTallies(s, seats, labels.get(s.taskId)?.label ?? null))
    onPage(tasks.length)
    if (page.length < PAGE) break
    after = page[page.length - 1].taskId
  }
  return { seats, tasks, byId: new Map(tasks.map((t) => [t.task, t])), labels }
}
