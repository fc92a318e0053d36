import { CV_TIE, foldsOf, selectIndex } from '../cv-select'
import { isotonicFit, isotonicOrder, type IsotonicModel } from '../isotonic'
import { gridPoints, type Hyper } from '../methods'
import { brierOne } from '../scores'
import type { TaskTallies } from '../tallies'
import { tieBreak } from '../tie-break'
import { StandingVoteAggregator } from './aggregator'
import { recalibrateTop } from './recalibrate'
import { fitStandingReliabilities } from './reliability'

export interface StandingSelection {
  /** The chosen (b, κ). */
  readonly hyper: Hyper
  /** The grid searched ({b, κ} in §4 order, or the one fixed point) and each point's CV score. */
  readonly points: readonly Hyper[]
  readonly scores: Float64Array
  /** The deployed PAVA map: fitted on the pooled out-of-fold top-label probabilities at `hyper`. */
  readonly recalibration: IsotonicModel | null
}

/**
 * §11's selection: §7's F stratified folds on L (seeded by `seed`); for every grid point the raw
 * posteriors of each held-out fold come from reliabilities fitted on the other folds. The score of a
 * point is the pooled Brier of its RECALIBRATED out-of-fold posteriors, the recalibration itself
 * cross-fitted (fold f's PAVA map is fitted on the other folds' out-of-fold top-label probabilities),
 * so no task's score sees its own label. The choice: for a council of at most FEW_SEATS seats the
 * one-standard-error rule below, for a larger panel §7's plain minimum; ties by §7's first point within
 * 1e-12. `fixed` skips the search and only fits the recalibration for that point.
 * Cost: O(F·|grid|·Σ(S + K)) posteriors + O(|grid|·F·n log n) PAVA.
 */
export function selectStandingVote(labeled: readonly TaskTallies[], seed: number, F: number, fixed: Hyper | null): StandingSelection {
  const L = labeled.filter((t) => t.gold >= 0)
  const points = fixed === null ? gridPoints('standing-vote') : [fixed]
  const n = L.length
  const fold = foldsOf(L, F, seed)
  const offset = new Int32Array(n + 1)
  for (let i = 0; i < n; i++) offset[i + 1] = offset[i] + L[i].K
  const raw = points.map(() => new Float64Array(offset[n]))
  for (let f = 0; f < F; f++) {
    const train = L.filter((_, i) => fold[i] !== f)
    if (train.length === n) continue // empty fold
    const rel = fitStandingReliabilities(train)
    points.forEach((h, j) => {
      const agg = new StandingVoteAggregator(h, rel, null)
      for (let i = 0; i < n; i++) if (fold[i] === f) agg.rawPosteriorAt(L[i], undefined, -1, raw[j].subarray(offset[i], offset[i + 1]))
    })
  }
  const scores = new Float64Array(points.length)
  const perTask = points.map((_, j) => {
    const { conf, correct } = topLabels(L, raw[j], offset, seed)
    const b = recalibratedBriers(L, raw[j], offset, conf, correct, fold, F)
    scores[j] = n === 0 ? 0 : b.reduce((a, x) => a + x, 0) / n
    return b
  })
  const best = seatsSeen(L) <= FEW_SEATS ? oneStandardError(points, scores, perTask, fold, F) : selectIndex(scores)
  const { conf, correct } = topLabels(L, raw[best], offset, seed)
  const recalibration = n === 0 ? null : isotonicFit(conf, correct)
  return { hyper: points[best], points, scores, recalibration }
}

/** Top-label probability and whether the tie-broken answer is the label, per task. */
function topLabels(L: readonly TaskTallies[], raw: Float64Array, offset: Int32Array, seed: number): { conf: Float64Array; correct: Uint8Array } {
  const conf = new Float64Array(L.length)
  const correct = new Uint8Array(L.length)
  L.forEach((t, i) => {
    const p = raw.subarray(offset[i], offset[i + 1])
    let top = 0
    for (let g = 0; g < t.K; g++) if (p[g] > top) top = p[g]
    conf[i] = top
    correct[i] = tieBreak(p, t.K, t.task, seed) === t.gold ? 1 : 0
  })
  return { conf, correct }
}

/**
 * A council of at most this many seats gets the one-standard-error rule; a larger panel (a crowd of
 * workers) §7's plain minimum. With a few seats one weight can outvote the others, so a κ picked by
 * noise changes answers; with dozens a mis-weighted seat is one voice among many, and κ is what finds
 * the careless workers (bluebird, 39 workers on 8–15 labels a split: the guard cost 2.6 points there).
 * Real councils have 3–5 seats; the crowdsourcing sets 39–825.
 */
export const FEW_SEATS = 8

/** Seats with a standing answer on some labeled task. O(Σ S). */
function seatsSeen(L: readonly TaskTallies[]): number {
  const seen = new Set<number>()
  for (const t of L) for (let s = 0; s < t.S; s++) seen.add(t.seats[s])
  return seen.size
}

/**
 * The one-standard-error rule (Breiman et al. 1984, as glmnet's `lambda.1se`): the standard error of the
 * best point's CV score is the sample standard deviation of its per-fold mean Brier over √F; among the
 * points within one such error of the best, take the one with the smallest κ, then the lowest Brier
 * (§7's first-in-grid on ties). κ > 0 tells seats apart; on a few dozen labels their reliabilities differ
 * by noise, and a κ picked by noise gives a seat as good as the others a weight that outvotes two of
 * them (a council of three copies of one model lost 6 points of accuracy that way on 48 labels). With
 * enough labels real differences exceed the error and κ stays.
 */
function oneStandardError(points: readonly Hyper[], scores: Float64Array, perTask: readonly Float64Array[], fold: Int32Array, F: number): number {
  const best = selectIndex(scores)
  const sums = new Float64Array(F)
  const counts = new Float64Array(F)
  perTask[best].forEach((b, i) => {
    sums[fold[i]] += b
    counts[fold[i]]++
  })
  const means: number[] = []
  for (let f = 0; f < F; f++) if (counts[f] > 0) means.push(sums[f] / counts[f])
  if (means.length < 2) return best
  const m = means.reduce((a, x) => a + x, 0) / means.length
  const se = Math.sqrt(means.reduce((a, x) => a + (x - m) * (x - m), 0) / (means.length - 1) / means.length)
  let pick = best
  points.forEach((h, j) => {
    if (scores[j] > scores[best] + se + CV_TIE) return
    const kappa = h.kappa ?? 0
    const pickKappa = points[pick].kappa ?? 0
    if (kappa < pickKappa || (kappa === pickKappa && scores[j] < scores[pick] - CV_TIE)) pick = j
  })
  return pick
}

/** Per-task Brier of the posteriors after fold-wise cross-fitted recalibration. */
function recalibratedBriers(
  L: readonly TaskTallies[], raw: Float64Array, offset: Int32Array, conf: Float64Array, correct: Uint8Array, fold: Int32Array, F: number
): Float64Array {
  const out = new Float64Array(L.length)
  const p = new Float64Array(64)
  const sorted = isotonicOrder(conf) // one sort; each fold's training order is a subsequence of it
  for (let f = 0; f < F; f++) {
    const testIdx: number[] = []
    for (let i = 0; i < L.length; i++) if (fold[i] === f) testIdx.push(i)
    if (testIdx.length === 0) continue
    const train = sorted.filter((i) => fold[i] !== f)
    const iso = train.length === 0 ? null : isotonicFit(conf, correct, undefined, train)
    for (const i of testIdx) {
      const t = L[i]
      const q = t.K <= p.length ? p.subarray(0, t.K) : new Float64Array(t.K)
      q.set(raw.subarray(offset[i], offset[i + 1]))
      out[i] = brierOne(recalibrateTop(q, t.K, iso), t.K, t.gold)
    }
  }
  return out
}
