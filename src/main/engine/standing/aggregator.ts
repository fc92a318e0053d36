import type { Aggregator, SeatReport } from '../aggregator'
import type { IsotonicModel } from '../isotonic'
import { normalizeLog } from '../ln-f'
import type { Hyper } from '../methods'
import { priorMean, seatWeight } from '../prior-means'
import { evidenceOf, reliabilityOf, type Reliabilities } from '../reliability'
import type { SeatIndex } from '../seat-index'
import { cutAt, CURRENT_AT, type TaskTallies } from '../tallies'
import { recalibrateTop } from './recalibrate'

// Read once: under some module transforms (tsx, vitest) an imported binding is a getter per access.
const CURRENT = CURRENT_AT

/**
 * The standing vote (docs/engine.md §11), the engine's default method for councils. At round t each seat
 * casts one vote, its standing answer a_i (latest +1 candidate up to t; none: no vote), with the
 * one-coin reliability μ_i = clip(b + κ·(r_i − r̄), 0.01, 0.99) (§4's per-agent form on the
 * standing-answer reliabilities) and the weight w_i = ln(μ_i/(1 − μ_i)):
 *
 *   ln π_raw(g) = Σ_i w_i·1{a_i = g} − normaliser      (uniform π_0)
 *
 * i.e. P(a_i | g) ∝ μ_i if a_i = g, else 1 − μ_i: a wrong vote is one event, not spread over K − 1
 * alternatives. On real debates K is not the number of ways to be wrong — open answers' candidates
 * are the answers seen, so a large K marks earlier disagreement — and the (K − 1) factor of §3 made
 * unanimous votes on such tasks the most confident (nested-CV Brier on the real debates: 0.155–0.756
 * without it, 0.241–0.828 with it). This is BDA Prop. 1's argmax for every K.
 *
 * The raw posterior is then recalibrated: the top-label probability goes through a PAVA map fitted on out-of-fold
 * top-label probabilities, the other candidates rescaled in proportion (recalibrate.ts). A vote
 * counts once however often it was repeated, and an abandoned answer not at all.
 */
export class StandingVoteAggregator implements Aggregator {
  readonly method = 'standing-vote' as const
  readonly mu: Float64Array
  readonly unseenMu: number
  private readonly w: Float64Array
  private readonly unseenW: number

  constructor(
    readonly hyper: Hyper,
    readonly reliabilities: Reliabilities,
    /** The PAVA map of the top-label probability; null = the raw posterior (inside CV). */
    readonly recalibration: IsotonicModel | null
  ) {
    this.mu = Float64Array.from(reliabilities.r, (r) => priorMean('per-agent', hyper, r, reliabilities.rBar))
    this.unseenMu = priorMean('per-agent', hyper, reliabilities.rBar, reliabilities.rBar)
    this.w = this.mu.map(seatWeight)
    this.unseenW = seatWeight(this.unseenMu)
  }

  /** μ of global seat gi (the unseen value beyond the fitted range). */
  muOf(gi: number): number {
    return gi < this.mu.length ? this.mu[gi] : this.unseenMu
  }

  /** w_i = ln(μ_i/(1 − μ_i)) of global seat gi: what its vote adds to its candidate's log-odds. */
  weightOf(gi: number): number {
    return gi < this.w.length ? this.w[gi] : this.unseenW
  }

  /** The raw posterior π_raw (before recalibration) into `out`. O(S + K). */
  rawPosteriorAt(t: TaskTallies, round: number | undefined, dropSeat: number, out: Float64Array): Float64Array {
    const K = t.K
    out.fill(0, 0, K)
    const cut = round === undefined ? t.R - 1 : cutAt(t, round)
    if (cut >= 0) {
      const W = 2 * K + 2 // recordWidth(K), without a getter call per task under tsx
      let off = cut * t.S * W + CURRENT
      for (let s = 0; s < t.S; s++, off += W) {
        const a = t.counts[off]
        if (a < 0 || s === dropSeat) continue
        out[a] += this.weightOf(t.seats[s])
      }
    }
    normalizeLog(out, K)
    return out
  }

  posteriorAt(t: TaskTallies, round?: number, dropSeat = -1, out?: Float64Array): Float64Array {
    const res = this.rawPosteriorAt(t, round, dropSeat, out ?? new Float64Array(t.K))
    return recalibrateTop(res, t.K, this.recalibration)
  }

  weights(t: TaskTallies): Record<string, number> {
    const w: Record<string, number> = {}
    for (let s = 0; s < t.S; s++) w[t.seatIds[s]] = this.weightOf(t.seats[s])
    return w
  }

  seatReport(index: SeatIndex): SeatReport[] {
    const rel = this.reliabilities
    return index.ids.map((seat, gi) => {
      const mu = this.muOf(gi)
      const seen = gi < rel.seen.length && rel.seen[gi] === 1
      return { seat, seen, r: reliabilityOf(rel, gi), evidence: evidenceOf(rel, gi), mu, weight: seatWeight(mu) }
    })
  }
}
