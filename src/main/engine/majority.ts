import type { Aggregator, SeatReport } from './aggregator'
import type { SeatIndex } from './seat-index'
import type { TaskTallies } from './tallies'

/**
 * Majority shares (docs/engine.md §6, BDA B.1): P(g) = share of the counted seats whose last round-0
 * propose/vote is g; uniform when no counted seat has one. `counted(gi)` filters by global seat
 * (gated uses it); `dropSeat` (local) is left out. Round-0 evidence only, so every cut t ≥ 0 gives
 * the same answer. Returns the number of votes counted. O(S + K).
 */
export function majorityShares(
  t: TaskTallies, out: Float64Array, dropSeat = -1, counted: ((gi: number) => boolean) | null = null
): number {
  const K = t.K
  out.fill(0, 0, K)
  let votes = 0
  for (let s = 0; s < t.S; s++) {
    const a = t.vote0[s]
    if (a < 0 || s === dropSeat || (counted !== null && !counted(t.seats[s]))) continue
    out[a]++
    votes++
  }
  if (votes === 0) out.fill(1 / K, 0, K)
  else for (let g = 0; g < K; g++) out[g] /= votes
  return votes
}

/** Plain majority: no fit, no weights. */
export class MajorityAggregator implements Aggregator {
  readonly method = 'majority' as const
  readonly hyper = {}

  posteriorAt(t: TaskTallies, _round?: number, dropSeat = -1, out?: Float64Array): Float64Array {
    const res = out ?? new Float64Array(t.K)
    majorityShares(t, res, dropSeat)
    return res
  }

  weights(): Record<string, number> {
    return {}
  }

  seatReport(index: SeatIndex): SeatReport[] {
    return index.ids.map((seat) => ({ seat, seen: false, r: null }))
  }
}
