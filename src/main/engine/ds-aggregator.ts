import type { Aggregator, SeatReport } from './aggregator'
import { LabelMap, requireOneCandidateSet } from './candidate-set'
import { dawidSkene, type DsData, type DsResult } from './dawid-skene'
import { oneCoinRow } from './dawid-skene-per-task'
import { normalizeLog } from './ln-f'
import type { Method } from './methods'
import type { SeatIndex } from './seat-index'
import type { TaskTallies } from './tallies'

/**
 * ds-em / ds-em-full as an aggregator (docs/engine.md §6): EM runs once, without labels, on each
 * seat's last round-0 propose/vote over the `pool` tasks. A pool task's posterior is EM's own
 * (last E-step); any other task — or a pool task with a seat dropped — gets one E-step with the
 * parameters that produced those posteriors. Seats that never voted in the pool have no error
 * matrix and are left out. One-coin ds-em scores a task of another candidate set as on per-task
 * sets (`otherSet`); ds-em-full refuses it.
 * @throws MethodRefused when the pool's tasks do not share one candidate set.
 */
export class DsAggregator implements Aggregator {
  readonly hyper = {}
  readonly result: DsResult
  private readonly map: LabelMap
  private readonly dsSeat = new Map<number, number>()
  private readonly poolIndex = new Map<TaskTallies, number>()
  private readonly K: number

  constructor(
    readonly method: Extract<Method, 'ds-em' | 'ds-em-full'>,
    pool: readonly TaskTallies[]
  ) {
    requireOneCandidateSet(method, pool)
    const labels = pool.length > 0 ? pool[0].candidates : []
    this.K = labels.length
    this.map = new LabelMap(method, labels)
    const start = new Int32Array(pool.length + 1)
    const seat: number[] = []
    const label: number[] = []
    pool.forEach((t, i) => {
      this.poolIndex.set(t, i)
      const perm = this.map.perm(t.task, t.candidates, t.candKey)
      for (let s = 0; s < t.S; s++) {
        if (t.vote0[s] < 0) continue
        let d = this.dsSeat.get(t.seats[s])
        if (d === undefined) this.dsSeat.set(t.seats[s], (d = this.dsSeat.size))
        seat.push(d)
        label.push(perm[t.vote0[s]])
      }
      start[i + 1] = seat.length
    })
    const data: DsData = { nTasks: pool.length, nSeats: this.dsSeat.size, K: this.K, start, seat: Int32Array.from(seat), label: Int32Array.from(label) }
    this.result = dawidSkene(data, { full: method === 'ds-em-full' })
  }

  posteriorAt(t: TaskTallies, _round?: number, dropSeat = -1, out?: Float64Array): Float64Array {
    if (this.method === 'ds-em' && !this.map.covers(t.candidates, t.candKey)) return this.otherSet(t, dropSeat, out ?? new Float64Array(t.K))
    const K = this.K
    const perm = this.map.perm(t.task, t.candidates, t.candKey)
    const res = out ?? new Float64Array(K)
    const idx = this.poolIndex.get(t)
    if (idx !== undefined && dropSeat < 0) {
      for (let g = 0; g < K; g++) res[g] = this.result.posteriors[idx * K + perm[g]]
      return res
    }
    const { priors, errors } = this.result.model
    const row = new Float64Array(K)
    for (let g = 0; g < K; g++) row[g] = Math.log(priors[g])
    for (let s = 0; s < t.S; s++) {
      const d = this.dsSeat.get(t.seats[s])
      if (t.vote0[s] < 0 || s === dropSeat || d === undefined) continue
      const base = (d * K + perm[t.vote0[s]]) * K
      for (let g = 0; g < K; g++) row[g] += Math.log(errors[base + g])
    }
    normalizeLog(row, K)
    for (let g = 0; g < K; g++) res[g] = row[perm[g]]
    return res
  }

  /**
   * One-coin ds-em on a task outside the pool's candidate set (e.g. a calibration task of another
   * set): one E-step with the seats' accuracies and a uniform prior over the task's own candidates,
   * as on per-task sets (ds-per-task.ts) — the class prior belongs to the pool's labels only.
   */
  private otherSet(t: TaskTallies, dropSeat: number, res: Float64Array): Float64Array {
    const K = this.K
    const { errors } = this.result.model
    const seat: number[] = []
    const label: number[] = []
    const accuracy: number[] = []
    for (let s = 0; s < t.S; s++) {
      const d = this.dsSeat.get(t.seats[s])
      if (t.vote0[s] < 0 || s === dropSeat || d === undefined) continue
      seat.push(accuracy.length)
      accuracy.push(errors[(d * K) * K])
      label.push(t.vote0[s])
    }
    const row = new Float64Array(t.K)
    oneCoinRow(t.K, 0, seat.length, seat, label, accuracy, row)
    normalizeLog(row, t.K)
    res.set(row)
    return res
  }

  weights(): Record<string, number> {
    return {}
  }

  seatReport(index: SeatIndex): SeatReport[] {
    const K = this.K
    const { errors } = this.result.model
    return index.ids.map((seat, gi) => {
      const d = this.dsSeat.get(gi)
      if (d === undefined) return { seat, seen: false, r: null }
      if (this.method === 'ds-em') return { seat, seen: true, r: null, accuracy: errors[(d * K) * K] }
      const matrix = Array.from({ length: K }, (_, g) => Array.from({ length: K }, (_, o) => errors[(d * K + o) * K + g]))
      return { seat, seen: true, r: null, confusion: { labels: [...this.map.labels], matrix } }
    })
  }
}
