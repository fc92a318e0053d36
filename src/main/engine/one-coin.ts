import gammaln from '@stdlib/math-base-special-gammaln'
import type { Aggregator, SeatReport } from './aggregator'
import { SeatTables } from './lgamma-tables'
import { normalizeLog } from './ln-f'
import type { Hyper, OneCoinMethod } from './methods'
import { betaPriors, seatWeight, type BetaPriors } from './prior-means'
import { evidenceOf, reliabilityOf, type Reliabilities } from './reliability'
import type { SeatIndex } from './seat-index'
import { C_AT, cutAt, N_AT, recordWidth, type TaskTallies } from './tallies'

/**
 * The one-coin log-likelihood of docs/engine.md §3 (BDA Eq. 1) at round cut `cut`, up to terms that do
 * not depend on g (they cancel in the normaliser):
 *
 *   ℓ(g) = Σ_i [ lnΓ(α_i + c_i(g)) + lnΓ(β_i + N_i − c_i(g)) + e_i(g)·ln(K − 1) ]
 *        = Σ_i ln F_i(g) + Σ_i [ lnΓ(α_i + β_i + N_i) + lnB(α_i, β_i) + N_i·ln(K − 1) ]
 *
 * Seats with no endorsement contribute nothing; `dropSeat` (local index, −1 = none) is skipped.
 * Writes out[0..K−1]. O(S·K) lookups.
 */
export function oneCoinLogLik(t: TaskTallies, cut: number, tabs: SeatTables, dropSeat: number, out: Float64Array): void {
  const K = t.K
  out.fill(0, 0, K)
  if (cut < 0) return
  // Imported constants are getters under some module transforms (tsx, vitest): read them once.
  const W = recordWidth(K)
  const nAt = N_AT
  const cAt = C_AT
  const eAt = C_AT + K
  const counts = t.counts
  const seats = t.seats
  const lnK1 = Math.log(K - 1)
  let off = cut * t.S * W
  for (let s = 0; s < t.S; s++, off += W) {
    const N = counts[off + nAt]
    if (N === 0 || s === dropSeat) continue
    const k = tabs.slot(seats[s])
    if (tabs.ensure(k, N)) {
      const A = tabs.tableA(k)
      const B = tabs.tableB(k)
      for (let g = 0; g < K; g++) {
        const c = counts[off + cAt + g]
        out[g] += A[c] + B[N - c] + counts[off + eAt + g] * lnK1
      }
    } else {
      const al = tabs.alphaOf(seats[s])
      const be = tabs.betaOf(seats[s])
      for (let g = 0; g < K; g++) {
        const c = counts[off + cAt + g]
        out[g] += gammaln(al + c) + gammaln(be + N - c) + counts[off + eAt + g] * lnK1
      }
    }
  }
}

/** ln π(g | T) = τ·ℓ(g) − normaliser (uniform π_0), in place: ℓ → posterior. */
export function temperAndNormalize(ll: Float64Array, K: number, tau: number, out: Float64Array): Float64Array {
  for (let g = 0; g < K; g++) out[g] = tau * ll[g]
  normalizeLog(out, K)
  return out
}

/**
 * The fitted one-coin aggregator (shared / per-agent / tempered; docs/engine.md §3–§4): Beta(α_i, β_i)
 * priors from the reliabilities, τ = hyper.tau for tempered, 1 otherwise.
 */
export class OneCoinAggregator implements Aggregator {
  readonly priors: BetaPriors
  readonly tau: number
  private readonly tabs: SeatTables
  private readonly scratch = new Float64Array(8)

  constructor(
    readonly method: OneCoinMethod,
    readonly hyper: Hyper,
    readonly reliabilities: Reliabilities
  ) {
    this.priors = betaPriors(method, hyper, reliabilities)
    this.tau = method === 'tempered' ? hyper.tau! : 1
    this.tabs = new SeatTables(this.priors.alpha, this.priors.beta, this.priors.unseenAlpha, this.priors.unseenBeta)
  }

  posteriorAt(t: TaskTallies, round?: number, dropSeat = -1, out?: Float64Array): Float64Array {
    const res = out ?? new Float64Array(t.K)
    const ll = t.K <= this.scratch.length ? this.scratch : new Float64Array(t.K)
    oneCoinLogLik(t, cutAt(t, round), this.tabs, dropSeat, ll)
    return temperAndNormalize(ll, t.K, this.tau, res)
  }

  /** μ_i of global seat gi (the unseen value beyond the fitted range). */
  muOf(gi: number): number {
    return gi < this.priors.mu.length ? this.priors.mu[gi] : this.priors.unseenMu
  }

  weights(t: TaskTallies): Record<string, number> {
    const w: Record<string, number> = {}
    for (let s = 0; s < t.S; s++) w[t.seatIds[s]] = seatWeight(this.muOf(t.seats[s]))
    return w
  }

  seatReport(index: SeatIndex): SeatReport[] {
    return index.ids.map((seat, gi) => {
      const mu = this.muOf(gi)
      const seen = gi < this.reliabilities.seen.length && this.reliabilities.seen[gi] === 1
      return { seat, seen, r: reliabilityOf(this.reliabilities, gi), evidence: evidenceOf(this.reliabilities, gi), mu, weight: seatWeight(mu) }
    })
  }
}
