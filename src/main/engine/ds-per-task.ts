import type { Aggregator, SeatReport } from './aggregator'
import { dawidSkenePerTask, oneCoinRow, type DsPerTaskResult } from './dawid-skene-per-task'
import { normalizeLog } from './ln-f'
import type { SeatIndex } from './seat-index'
import type { TaskTallies } from './tallies'

/**
 * ds-em (one-coin) as an aggregator when the pool's tasks do not share one candidate set
 * (docs/engine.md §6): EM runs once, without labels, on each seat's last round-0 propose/vote over the
 * `pool` tasks, each task with its own candidates and a uniform prior over them. A pool task's
 * posterior is EM's own (last E-step); any other task — or a pool task with a seat dropped — gets
 * one E-step with the accuracies that produced those posteriors. Seats that never voted in the
 * pool are left out. (A pool with one shared set keeps DsAggregator, bit-exact as before.)
 */
export class DsPerTaskAggregator implements Aggregator {
  readonly method = 'ds-em' as const
  readonly hyper = {}
  readonly result: DsPerTaskResult
  private readonly dsSeat = new Map<number, number>()
  private readonly poolIndex = new Map<TaskTallies, number>()
  private readonly offset: Int32Array

  constructor(pool: readonly TaskTallies[]) {
    const start = new Int32Array(pool.length + 1)
    const offset = new Int32Array(pool.length + 1)
    const K = new Int32Array(pool.length)
    const seat: number[] = []
    const label: number[] = []
    pool.forEach((t, i) => {
      this.poolIndex.set(t, i)
      K[i] = t.K
      offset[i + 1] = offset[i] + t.K
      for (let s = 0; s < t.S; s++) {
        if (t.vote0[s] < 0) continue
        let d = this.dsSeat.get(t.seats[s])
        if (d === undefined) this.dsSeat.set(t.seats[s], (d = this.dsSeat.size))
        seat.push(d)
        label.push(t.vote0[s])
      }
      start[i + 1] = seat.length
    })
    this.offset = offset
    this.result = dawidSkenePerTask({
      nTasks: pool.length, nSeats: this.dsSeat.size, K, offset, start, seat: Int32Array.from(seat), label: Int32Array.from(label)
    })
  }

  posteriorAt(t: TaskTallies, _round?: number, dropSeat = -1, out?: Float64Array): Float64Array {
    const K = t.K
    const res = out ?? new Float64Array(K)
    const idx = this.poolIndex.get(t)
    if (idx !== undefined && dropSeat < 0) {
      for (let g = 0; g < K; g++) res[g] = this.result.posteriors[this.offset[idx] + g]
      return res
    }
    const seat: number[] = []
    const label: number[] = []
    for (let s = 0; s < t.S; s++) {
      const d = this.dsSeat.get(t.seats[s])
      if (t.vote0[s] < 0 || s === dropSeat || d === undefined) continue
      seat.push(d)
      label.push(t.vote0[s])
    }
    const row = new Float64Array(K)
    oneCoinRow(K, 0, seat.length, seat, label, this.result.accuracy, row)
    normalizeLog(row, K)
    res.set(row)
    return res
  }

  weights(): Record<string, number> {
    return {}
  }

  seatReport(index: SeatIndex): SeatReport[] {
    return index.ids.map((seat, gi) => {
      const d = this.dsSeat.get(gi)
      if (d === undefined) return { seat, seen: false, r: null }
      return { seat, seen: true, r: null, accuracy: this.result.accuracy[d] }
    })
  }
}
