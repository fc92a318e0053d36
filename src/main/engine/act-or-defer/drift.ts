import { seatDrift, type DriftOptions, type DriftSeatCounts, type DriftTask, type SeatDrift } from '../certificate'
import { C_AT, finalRecord, N_AT, type TaskTallies } from '../tallies'

/** A labeled task and its label time (any monotone number: epoch ms, or a line number). */
export interface TimedLabel {
  readonly tallies: TaskTallies
  readonly time: number
}

/**
 * Seat drift (docs/engine.md §9) from tallies: per labeled task, each seat that moved in it contributes
 * c_i(g*) and N_i over all rounds (the full-trace record; g* = the label carried as the tallies'
 * gold); `seatDrift` then compares the most recent 20 % of labels with the rest against a
 * bootstrap noise floor. Tasks without a label are skipped. Seats come out in string order.
 */
export function driftOfTallies(labeled: readonly TimedLabel[], options: DriftOptions = {}): SeatDrift[] {
  const tasks: DriftTask[] = []
  for (const { tallies: t, time } of labeled) {
    if (t.gold < 0) continue
    const seats: Record<string, DriftSeatCounts> = {}
    for (let s = 0; s < t.S; s++) {
      const off = finalRecord(t, s)
      seats[t.seatIds[s]] = { consistent: t.counts[off + C_AT + t.gold], total: t.counts[off + N_AT] }
    }
    tasks.push({ id: t.task, time, seats })
  }
  return seatDrift(tasks, options)
}
