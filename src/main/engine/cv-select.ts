import { ConfusionAggregator, confusionCounts } from './confusion'
import { stratifiedFolds } from './folds'
import { packOneCoin, packTables, scoreOneCoinPack } from './cv-one-coin'
import { GRID, gridPoints, HYPER_NAMES, isOneCoin, MethodRefused, type Hyper, type Method } from './methods'
import { betaPriors } from './prior-means'
import { fitReliabilities } from './reliability'
import { brierOne } from './scores'
import type { TaskTallies } from './tallies'

/** Pooled Brier scores within this of the best are tied; the first in grid order wins (§7). */
export const CV_TIE = 1e-12

export interface CvResult {
  readonly hyper: Hyper
  /** The grid in §4/§5 order and each point's pooled out-of-fold Brier. */
  readonly points: readonly Hyper[]
  readonly scores: Float64Array
}

/** §7 folds of labeled tallies (gold ≥ 0). */
export function foldsOf(labeled: readonly TaskTallies[], F: number, seed: number): Int32Array {
  return stratifiedFolds(labeled.map((t) => ({ task: t.task, gold: t.candidates[t.gold] })), F, seed)
}

/**
 * CV grid search (docs/engine.md §7, BDA D.1): F stratified folds seeded by `seed`; for each non-empty
 * held-out fold the reliabilities (and, for confusion, the cell counts and π_0) are refit on the
 * other folds, then every grid point scores the held-out tasks' full-trace posteriors. The score is
 * the pooled out-of-fold Brier; the choice is the first point within 1e-12 of the best. τ is the
 * innermost grid axis, so one log-likelihood per task serves all four τ.
 * Cost: O(F · #(b,κ,s or λ) · Σ_held-out S·K) + O(#points · n · K).
 * @throws MethodRefused when there is no labeled task.
 */
export function cvSelect(method: Method, labeled: readonly TaskTallies[], seed: number, F = 5, labels?: readonly string[]): CvResult {
  const points = gridPoints(method)
  // The standing vote scores its recalibrated posterior (select-hyper.ts); this search scores raw ones.
  if (method === 'standing-vote') throw new RangeError('cvSelect: the standing vote is selected by selectHyper')
  if (HYPER_NAMES[method].length === 0) return { hyper: {}, points, scores: new Float64Array(1) }
  const L = labeled.filter((t) => t.gold >= 0)
  if (L.length === 0) throw new MethodRefused(`${method}: no labeled task to select hyperparameters from; give them explicitly`)
  const fold = foldsOf(L, F, seed)
  const taus = HYPER_NAMES[method].includes('tau') ? GRID.tau : [1]
  const outer = points.filter((_, i) => i % taus.length === 0)
  const sums = new Float64Array(points.length)
  let n = 0
  for (let f = 0; f < F; f++) {
    const test = L.filter((_, i) => fold[i] === f)
    if (test.length === 0) continue
    const train = L.filter((_, i) => fold[i] !== f)
    n += test.length
    if (isOneCoin(method)) scoreOneCoinFold(method, train, test, outer, taus, sums)
    else scoreConfusionFold(train, test, outer, taus, sums, labels ?? L[0].candidates)
  }
  const scores = sums.map((s) => s / n)
  return { hyper: points[selectIndex(scores)], points, scores }
}

/** §7's tie rule: the first grid point whose score is within 1e-12 (absolute) of the lowest. */
export function selectIndex(scores: ArrayLike<number>): number {
  let best = Infinity
  for (let i = 0; i < scores.length; i++) if (scores[i] < best) best = scores[i]
  for (let i = 0; i < scores.length; i++) if (scores[i] <= best + CV_TIE) return i
  return 0
}

function scoreOneCoinFold(
  method: 'shared' | 'per-agent' | 'tempered', train: readonly TaskTallies[], test: readonly TaskTallies[],
  outer: readonly Hyper[], taus: readonly number[], sums: Float64Array
): void {
  const rel = fitReliabilities(train)
  const pack = packOneCoin(test)
  const tables = packTables(pack)
  outer.forEach((h, o) => scoreOneCoinPack(pack, tables, betaPriors(method, h, rel), taus, sums, o * taus.length))
}

function scoreConfusionFold(
  train: readonly TaskTallies[], test: readonly TaskTallies[], outer: readonly Hyper[], taus: readonly number[],
  sums: Float64Array, labels: readonly string[]
): void {
  const counts = confusionCounts(train, labels)
  const K = labels.length
  const ll = new Float64Array(K)
  const p = new Float64Array(K)
  outer.forEach((h, o) => {
    const agg = new ConfusionAggregator({ lambda: h.lambda, tau: 1 }, counts)
    for (const t of test) {
      const perm = agg.logLik(t, t.R - 1, -1, ll)
      for (let j = 0; j < taus.length; j++) sums[o * taus.length + j] += brierOne(agg.finish(ll, perm, taus[j], p), K, t.gold)
    }
  })
}
