import type { Aggregator, SeatReport } from './aggregator'
import { MethodRefused } from './methods'
import type { SeatIndex } from './seat-index'
import { currentAnswer } from './social'
import type { TaskTallies } from './tallies'

/**
 * best-seat (docs/engine.md §6, BDA B.1): the answer of one seat, picked on the labeled tasks only.
 *
 * A seat's answer on a task is its current answer (latest +1 candidate, cleared by a retract — the
 * `social` reading) at the task's last round, or at the cut when one is given. The pick: the seat
 * with the most labeled tasks whose final answer is the gold, i.e. the highest accuracy over all of
 * L, where a task the seat did not answer (or took no part in) counts as wrong. Ties go to the seat
 * first in the seat index (order of first sight), so the pick never depends on map order.
 *
 * On a task the picked seat did not answer the posterior is uniform and `hasAnswer` is false: the
 * task scores as wrong (tie-break.ts NO_ANSWER). No weights (a baseline).
 */
export class BestSeatAggregator implements Aggregator {
  readonly method = 'best-seat' as const
  readonly hyper = {}
  /** Global index of the picked seat. */
  readonly seat: number
  /** Correct final answers over L by global seat (absent: the seat made no move in L). */
  private readonly correct = new Map<number, number>()
  private readonly labeled: number

  /** @throws MethodRefused when no labeled task has a seat to pick from. */
  constructor(labeled: readonly TaskTallies[]) {
    const L = labeled.filter((t) => t.gold >= 0)
    this.labeled = L.length
    for (const t of L) {
      for (let s = 0; s < t.S; s++) {
        const gi = t.seats[s]
        const ok = currentAnswer(t, s) === t.gold ? 1 : 0
        this.correct.set(gi, (this.correct.get(gi) ?? 0) + ok)
      }
    }
    let best = -1
    for (const [gi, n] of this.correct) {
      const top = best < 0 ? -1 : this.correct.get(best)!
      if (n > top || (n === top && gi < best)) best = gi
    }
    if (best < 0) throw new MethodRefused('best-seat needs a labeled task with a seat in it to pick its seat')
    this.seat = best
  }

  /** Local index of the picked seat in t (−1: it took no part). */
  private localSeat(t: TaskTallies): number {
    for (let s = 0; s < t.S; s++) if (t.seats[s] === this.seat) return s
    return -1
  }

  private answerOf(t: TaskTallies, round: number | undefined, dropSeat: number): number {
    const s = this.localSeat(t)
    return s < 0 || s === dropSeat ? -1 : currentAnswer(t, s, round)
  }

  posteriorAt(t: TaskTallies, round?: number, dropSeat = -1, out?: Float64Array): Float64Array {
    const res = out ?? new Float64Array(t.K)
    const a = this.answerOf(t, round, dropSeat)
    if (a < 0) res.fill(1 / t.K, 0, t.K)
    else {
      res.fill(0, 0, t.K)
      res[a] = 1
    }
    return res
  }

  hasAnswer(t: TaskTallies, round?: number, dropSeat = -1): boolean {
    return this.answerOf(t, round, dropSeat) >= 0
  }

  weights(): Record<string, number> {
    return {}
  }

  seatReport(index: SeatIndex): SeatReport[] {
    return index.ids.map((seat, gi) => {
      const n = this.correct.get(gi)
      if (n === undefined) return { seat, seen: false, r: null, picked: false }
      return { seat, seen: true, r: null, accuracy: n / this.labeled, picked: gi === this.seat }
    })
  }
}
