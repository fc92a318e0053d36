import type { Aggregator } from './aggregator'
import type { TaskTallies } from './tallies'

export interface SeatInfluence {
  seat: string
  /** π(· | T without this seat's endorsements), task candidate order. */
  posterior: Float64Array
  /** Total-variation shift from the full posterior: ½·Σ_g |π(g) − π_{−i}(g)|. */
  shift: number
}

/**
 * Leave-one-seat-out influence (docs/engine.md §6): for each seat that moved in the task, the
 * posterior under the SAME fit with that seat's evidence dropped — no refit. O(S) posteriors.
 */
export function looInfluence(agg: Aggregator, t: TaskTallies, round?: number): SeatInfluence[] {
  const full = agg.posteriorAt(t, round)
  return t.seatIds.map((seat, s) => {
    const posterior = agg.posteriorAt(t, round, s)
    let tv = 0
    for (let g = 0; g < t.K; g++) tv += Math.abs(full[g] - posterior[g])
    return { seat, posterior, shift: tv / 2 }
  })
}
