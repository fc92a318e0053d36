import type { Aggregator, SeatReport } from './aggregator'
import { LabelMap } from './candidate-set'
import { normalizeLog } from './ln-f'
import type { Hyper } from './methods'
import { evidenceOf, fitReliabilities, reliabilityOf, type Reliabilities } from './reliability'
import type { SeatIndex } from './seat-index'
import { C_AT, cutAt, N_AT, recordWidth, type TaskTallies } from './tallies'

/**
 * What the tempered confusion model learns from the labeled set L (docs/engine.md §5), before λ and τ:
 * the reliabilities r_i (§4), the expanded-cell counts n_i(g, g') (seat i's cell-g' observations
 * on tasks whose gold is g, all rounds; x_i(g') = c_i(g'), see tallies.ts) and the gold counts.
 * Matrices are K×K, [true g][observed g'], in `labels` order (cells are keyed by label).
 */
export interface ConfusionCounts {
  readonly labels: readonly string[]
  readonly map: LabelMap
  readonly rel: Reliabilities
  /** n_i by global seat index (length rel.r.length), K·K each. */
  readonly n: Float64Array[]
  readonly goldCount: Float64Array
  readonly nLabeled: number
}

/** O(Σ_L S·K). @throws MethodRefused when a labeled task's candidate set differs from `labels`. */
export function confusionCounts(labeled: readonly TaskTallies[], labels: readonly string[]): ConfusionCounts {
  const K = labels.length
  const map = new LabelMap('confusion', labels)
  const rel = fitReliabilities(labeled)
  const n = Array.from({ length: rel.r.length }, () => new Float64Array(K * K))
  const goldCount = new Float64Array(K)
  let nLabeled = 0
  for (const t of labeled) {
    if (t.gold < 0) continue
    const perm = map.perm(t.task, t.candidates, t.candKey)
    const g = perm[t.gold]
    goldCount[g]++
    nLabeled++
    if (t.R === 0) continue
    const W = recordWidth(K)
    const base = (t.R - 1) * t.S * W
    for (let s = 0; s < t.S; s++) {
      const row = n[t.seats[s]]
      for (let h = 0; h < K; h++) row[g * K + perm[h]] += t.counts[base + s * W + C_AT + h]
    }
  }
  return { labels, map, rel, n, goldCount, nLabeled }
}

/**
 * ln P_i(g'|g) = ln[(n_i(g, g') + λ·m_i(g'|g)) / (Σ_g'' n_i(g, g'') + λ)], with the one-coin-centred
 * prior mean m_i(g'|g) = r_i if g' = g else (1 − r_i)/(K − 1) (§5). `n` null = an unseen seat.
 */
export function lnConfusion(n: Float64Array | null, r: number, lambda: number, K: number): Float64Array {
  const out = new Float64Array(K * K)
  const off = (1 - r) / (K - 1)
  for (let g = 0; g < K; g++) {
    let rowSum = 0
    if (n !== null) for (let h = 0; h < K; h++) rowSum += n[g * K + h]
    for (let h = 0; h < K; h++) {
      const m = h === g ? r : off
      out[g * K + h] = Math.log(((n === null ? 0 : n[g * K + h]) + lambda * m) / (rowSum + lambda))
    }
  }
  return out
}

/**
 * The tempered confusion aggregator (docs/engine.md §5, BDA Eq. 4):
 *   ln π(g | T) = ln π_0(g) + τ·Σ_i Σ_g' x_i(g')·ln P_i(g'|g) − normaliser,
 *   π_0(g) = (#{gold = g in L} + 1) / (|L| + K).
 */
export class ConfusionAggregator implements Aggregator {
  readonly method = 'confusion' as const
  readonly tau: number
  readonly lnP: Float64Array[]
  readonly lnPUnseen: Float64Array
  readonly lnPi0: Float64Array
  private readonly K: number

  constructor(
    readonly hyper: Hyper,
    readonly counts: ConfusionCounts
  ) {
    const K = (this.K = counts.labels.length)
    const { rel, n } = counts
    this.tau = hyper.tau!
    this.lnP = n.map((row, gi) => lnConfusion(row, reliabilityOf(rel, gi), hyper.lambda!, K))
    this.lnPUnseen = lnConfusion(null, rel.rBar, hyper.lambda!, K)
    this.lnPi0 = Float64Array.from(counts.goldCount, (c) => Math.log((c + 1) / (counts.nLabeled + K)))
  }

  private lnPOf(gi: number): Float64Array {
    return gi < this.lnP.length ? this.lnP[gi] : this.lnPUnseen
  }

  /** ℓ(g) = Σ_i Σ_g' x_i(g')·ln P_i(g'|g), task candidate order. O(S·K²). */
  logLik(t: TaskTallies, cut: number, dropSeat: number, out: Float64Array): Int32Array {
    const K = this.K
    const perm = this.counts.map.perm(t.task, t.candidates, t.candKey)
    out.fill(0, 0, K)
    if (cut < 0) return perm
    const W = recordWidth(K)
    const nAt = N_AT // imported constants can be getters under tsx / vitest: read once
    const cAt = C_AT
    const counts = t.counts
    let off = cut * t.S * W
    for (let s = 0; s < t.S; s++, off += W) {
      if (counts[off + nAt] === 0 || s === dropSeat) continue
      const lnP = this.lnPOf(t.seats[s])
      for (let g = 0; g < K; g++) {
        const row = perm[g] * K
        let acc = 0
        for (let h = 0; h < K; h++) {
          const x = counts[off + cAt + h]
          if (x !== 0) acc += x * lnP[row + perm[h]]
        }
        out[g] += acc
      }
    }
    return perm
  }

  /** Posterior from ℓ at temperature τ (the CV grid reuses one ℓ for every τ). */
  finish(ll: Float64Array, perm: Int32Array, tau: number, out: Float64Array): Float64Array {
    for (let g = 0; g < this.K; g++) out[g] = this.lnPi0[perm[g]] + tau * ll[g]
    normalizeLog(out, this.K)
    return out
  }

  posteriorAt(t: TaskTallies, round?: number, dropSeat = -1, out?: Float64Array): Float64Array {
    const ll = new Float64Array(this.K)
    const perm = this.logLik(t, cutAt(t, round), dropSeat, ll)
    return this.finish(ll, perm, this.tau, out ?? new Float64Array(this.K))
  }

  /** §5's displayed weight: mean over ordered pairs g ≠ h of ln(P_i(g|g) / P_i(g|h)). */
  weightOf(gi: number): number {
    const K = this.K
    const lnP = this.lnPOf(gi)
    let sum = 0
    for (let g = 0; g < K; g++) for (let h = 0; h < K; h++) if (h !== g) sum += lnP[g * K + g] - lnP[h * K + g]
    return sum / (K * (K - 1))
  }

  weights(t: TaskTallies): Record<string, number> {
    const w: Record<string, number> = {}
    for (let s = 0; s < t.S; s++) w[t.seatIds[s]] = this.weightOf(t.seats[s])
    return w
  }

  seatReport(index: SeatIndex): SeatReport[] {
    const K = this.K
    const rel = this.counts.rel
    return index.ids.map((seat, gi) => {
      const lnP = this.lnPOf(gi)
      const matrix = Array.from({ length: K }, (_, g) => Array.from({ length: K }, (_, h) => Math.exp(lnP[g * K + h])))
      const seen = gi < rel.seen.length && rel.seen[gi] === 1
      return { seat, seen, r: reliabilityOf(rel, gi), evidence: evidenceOf(rel, gi), weight: this.weightOf(gi), confusion: { labels: [...this.counts.labels], matrix } }
    })
  }
}
