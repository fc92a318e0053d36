import gammaln from '@stdlib/math-base-special-gammaln'
import type { BetaPriors } from './prior-means'
import { C_AT, N_AT, recordWidth, type TaskTallies } from './tallies'

/**
 * Held-out tasks of one CV fold, flattened for the grid search (docs/engine.md §7): per task its K,
 * gold and seat entries; per entry the seat (as an index u into `seats`), N and the 2K counts
 * c(0..K−1), e(0..K−1) of the full trace. Built once per fold, scored once per grid point.
 */
export interface OneCoinPack {
  readonly n: number
  readonly K: Int32Array
  readonly gold: Int32Array
  /** Entries of task j: start[j] .. start[j+1]−1. */
  readonly start: Int32Array
  readonly u: Int32Array
  readonly N: Int32Array
  /** Offset of each entry's counts in `cnt` (c then e). */
  readonly off: Int32Array
  readonly cnt: Int32Array
  /** Distinct global seats and the largest N of each (table sizes). */
  readonly seats: Int32Array
  readonly maxN: Int32Array
  readonly maxK: number
}

/** O(Σ S·K). Seats without endorsements are dropped (they contribute nothing, §3). */
export function packOneCoin(tasks: readonly TaskTallies[]): OneCoinPack {
  const uOf = new Map<number, number>()
  const maxN: number[] = []
  const start = new Int32Array(tasks.length + 1)
  const u: number[] = []
  const N: number[] = []
  const off: number[] = []
  const cnt: number[] = []
  let maxK = 0
  tasks.forEach((t, j) => {
    maxK = Math.max(maxK, t.K)
    if (t.R > 0) {
      const W = recordWidth(t.K)
      const base = (t.R - 1) * t.S * W
      for (let s = 0; s < t.S; s++) {
        const n = t.counts[base + s * W + N_AT]
        if (n === 0) continue
        let k = uOf.get(t.seats[s])
        if (k === undefined) {
          uOf.set(t.seats[s], (k = maxN.length))
          maxN.push(0)
        }
        maxN[k] = Math.max(maxN[k], n)
        u.push(k)
        N.push(n)
        off.push(cnt.length)
        for (let i = 0; i < 2 * t.K; i++) cnt.push(t.counts[base + s * W + C_AT + i])
      }
    }
    start[j + 1] = u.length
  })
  return {
    n: tasks.length,
    K: Int32Array.from(tasks, (t) => t.K),
    gold: Int32Array.from(tasks, (t) => t.gold),
    start,
    u: Int32Array.from(u),
    N: Int32Array.from(N),
    off: Int32Array.from(off),
    cnt: Int32Array.from(cnt),
    seats: Int32Array.from(uOf.keys()),
    maxN: Int32Array.from(maxN),
    maxK
  }
}

/** Reusable lnΓ tables for a pack: seat u's lnΓ(α_u + n) at lgA[tabOff[u] + n], n ≤ maxN[u]. */
export interface PackTables {
  readonly tabOff: Int32Array
  readonly lgA: Float64Array
  readonly lgB: Float64Array
}

export function packTables(pack: OneCoinPack): PackTables {
  const tabOff = new Int32Array(pack.seats.length + 1)
  for (let k = 0; k < pack.seats.length; k++) tabOff[k + 1] = tabOff[k] + pack.maxN[k] + 1
  const size = tabOff[pack.seats.length]
  return { tabOff, lgA: new Float64Array(size), lgB: new Float64Array(size) }
}

/**
 * Adds each held-out task's Brier, for every τ, to sums[base + j] (docs/engine.md §3, §7): the
 * one-coin log-likelihood ℓ(g) = Σ_i lnΓ(α_i + c) + lnΓ(β_i + N − c) + e·ln(K − 1) (the kernel of
 * one-coin.ts on flat arrays), posterior = softmax(τ·ℓ). O(Σ maxN) gammaln + O(entries·K + n·|τ|·K).
 */
export function scoreOneCoinPack(pack: OneCoinPack, tab: PackTables, priors: BetaPriors, taus: readonly number[], sums: Float64Array, base: number): void {
  const { tabOff, lgA, lgB } = tab
  for (let k = 0; k < pack.seats.length; k++) {
    const gi = pack.seats[k]
    const al = gi < priors.alpha.length ? priors.alpha[gi] : priors.unseenAlpha
    const be = gi < priors.beta.length ? priors.beta[gi] : priors.unseenBeta
    for (let n = 0, at = tabOff[k]; n <= pack.maxN[k]; n++, at++) {
      lgA[at] = gammaln(al + n)
      lgB[at] = gammaln(be + n)
    }
  }
  const ll = new Float64Array(pack.maxK)
  const p = new Float64Array(pack.maxK)
  const { start, u, N, off, cnt, gold } = pack
  for (let j = 0; j < pack.n; j++) {
    const K = pack.K[j]
    const lnK1 = Math.log(K - 1)
    for (let g = 0; g < K; g++) ll[g] = 0
    for (let x = start[j]; x < start[j + 1]; x++) {
      const t0 = tabOff[u[x]]
      const n = N[x]
      const o = off[x]
      for (let g = 0; g < K; g++) {
        const c = cnt[o + g]
        ll[g] += lgA[t0 + c] + lgB[t0 + n - c] + cnt[o + K + g] * lnK1
      }
    }
    for (let q = 0; q < taus.length; q++) {
      const tau = taus[q]
      // softmax(τ·ℓ) inlined (as normalizeLog): this is the innermost loop of the grid search.
      let max = -Infinity
      for (let g = 0; g < K; g++) if (tau * ll[g] > max) max = tau * ll[g]
      let z = 0
      for (let g = 0; g < K; g++) z += (p[g] = Math.exp(tau * ll[g] - max))
      let b = 0
      for (let g = 0; g < K; g++) {
        const d = p[g] / z - (g === gold[j] ? 1 : 0)
        b += d * d
      }
      sums[base + q] += b
    }
  }
}
