import type { Aggregator, SeatReport } from './aggregator'
import type { SeatIndex } from './seat-index'
import { socialAt } from './social'
import type { TaskTallies } from './tallies'

/**
 * majority-final (docs/engine.md §6): P(g) = share of seats whose latest +1 candidate over the rounds
 * ≤ the cut is g — exactly §8's `social` reading (an abstain keeps the seat's earlier answer, a
 * retract clears it; uniform when no seat has one). The baseline a debate's users compare
 * against: no fit, no label, no weights.
 */
export class MajorityFinalAggregator implements Aggregator {
  readonly method = 'majority-final' as const
  readonly hyper = {}

  posteriorAt(t: TaskTallies, round?: number, dropSeat = -1, out?: Float64Array): Float64Array {
    return socialAt(t, round, out ?? new Float64Array(t.K), dropSeat)
  }

  weights(): Record<string, number> {
    return {}
  }

  seatReport(index: SeatIndex): SeatReport[] {
    return index.ids.map((seat) => ({ seat, seen: false, r: null }))
  }
}
