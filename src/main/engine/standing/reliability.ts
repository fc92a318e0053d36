import { labeledSeatRange, laplaceReliabilities, type Reliabilities } from '../reliability'
import { CURRENT_AT, recordWidth, type TaskTallies } from '../tallies'

/**
 * One-coin reliabilities of the seats' standing answers (docs/engine.md §11): on the labeled tasks L,
 *
 *   r_i = (#{tasks where the seat's standing answer at the task's last round is the label} + 1)
 *         / (#{tasks where it has one} + 2)
 *
 * A standing answer is the seat's latest +1 candidate (§8.2's `social` reading: challenge, concede
 * and retract update it, an abstain keeps it). Unlike §4's r_i, an abandoned round-0 answer and a
 * repeated vote count once, as the seat's final word — the reading §11 asks for. A seat is seen when
 * it has a standing answer on some labeled task; r̄ = mean over seen seats (½ when none); unseen
 * seats get r̄. `evidence` = the answers behind r_i. O(Σ S).
 */
export function fitStandingReliabilities(labeled: readonly TaskTallies[]): Reliabilities {
  const size = labeledSeatRange(labeled)
  const right = new Float64Array(size)
  const answered = new Float64Array(size)
  const seen = new Uint8Array(size)
  for (const t of labeled) {
    if (t.gold < 0 || t.R === 0) continue
    const W = recordWidth(t.K)
    const base = (t.R - 1) * t.S * W
    for (let s = 0; s < t.S; s++) {
      const a = t.counts[base + s * W + CURRENT_AT]
      if (a < 0) continue
      const gi = t.seats[s]
      seen[gi] = 1
      answered[gi]++
      if (a === t.gold) right[gi]++
    }
  }
  return laplaceReliabilities(right, answered, seen)
}
