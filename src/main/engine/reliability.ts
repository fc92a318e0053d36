import { C_AT, N_AT, recordWidth, type TaskTallies } from './tallies'

/**
 * Fitted seat reliabilities (docs/engine.md §4, BDA Eq. 3), over all rounds of the labeled tasks L:
 *
 *   r_i = (Σ_L c_i(g*) + 1) / (Σ_L N_i + 2)        (Laplace)
 *
 * A seat is seen when it made any move in L (even one without endorsement, which gives r_i = ½);
 * r̄ = mean r_i over seen seats (½ when none is seen); unseen seats get r̄.
 */
export interface Reliabilities {
  /** r_i by global seat index, r̄ for unseen seats below `r.length`. */
  readonly r: Float64Array
  readonly seen: Uint8Array
  readonly rBar: number
  /** Σ_L N_i: the endorsements on labeled tasks each r_i rests on (the console's evidence count). */
  readonly evidence: Float64Array
}

/** The endorsements behind r_i of global seat gi (0 for a seat unseen in the labels). */
export function evidenceOf(rel: Reliabilities, gi: number): number {
  return gi < rel.evidence.length ? rel.evidence[gi] : 0
}

/** r_i of global seat gi, r̄ beyond the fitted range. */
export function reliabilityOf(rel: Reliabilities, gi: number): number {
  return gi < rel.r.length ? rel.r[gi] : rel.rBar
}

/** 1 + the largest global seat index that moved in a labeled task: the length of per-seat arrays. */
export function labeledSeatRange(labeled: readonly TaskTallies[]): number {
  let size = 0
  for (const t of labeled) if (t.gold >= 0) for (let s = 0; s < t.S; s++) size = Math.max(size, t.seats[s] + 1)
  return size
}

/** Fits §4's r_i on the labeled tallies (gold ≥ 0; others are ignored). O(Σ S·K). */
export function fitReliabilities(labeled: readonly TaskTallies[]): Reliabilities {
  const size = labeledSeatRange(labeled)
  const consistent = new Float64Array(size)
  const total = new Float64Array(size)
  const seen = new Uint8Array(size)
  for (const t of labeled) {
    if (t.gold < 0 || t.R === 0) continue
    const W = recordWidth(t.K)
    const base = (t.R - 1) * t.S * W
    for (let s = 0; s < t.S; s++) {
      const gi = t.seats[s]
      seen[gi] = 1
      consistent[gi] += t.counts[base + s * W + C_AT + t.gold]
      total[gi] += t.counts[base + s * W + N_AT]
    }
  }
  return laplaceReliabilities(consistent, total, seen)
}

/**
 * r_i = (consistent_i + 1) / (total_i + 2) for seen seats, r̄ = their mean (½ when none is seen),
 * unseen seats r̄: the smoothing shared by §4's endorsement reliabilities and §11's standing answers.
 */
export function laplaceReliabilities(consistent: Float64Array, total: Float64Array, seen: Uint8Array): Reliabilities {
  const size = seen.length
  const r = new Float64Array(size)
  let sum = 0
  let nSeen = 0
  for (let i = 0; i < size; i++) {
    if (!seen[i]) continue
    r[i] = (consistent[i] + 1) / (total[i] + 2)
    sum += r[i]
    nSeen++
  }
  const rBar = nSeen === 0 ? 0.5 : sum / nSeen
  for (let i = 0; i < size; i++) if (!seen[i]) r[i] = rBar
  return { r, seen, rBar, evidence: total }
}
