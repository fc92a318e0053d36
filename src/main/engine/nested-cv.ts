import type { Aggregator } from './aggregator'
import { foldsOf } from './cv-select'
import { fitAggregator, type FitOptions } from './fit'
import { isLabelFree, isTuned, MethodRefused, type Hyper, type Method } from './methods'
import type { Prediction } from './scores'
import { selectHyper } from './select-hyper'
import type { TaskTallies } from './tallies'
import { scoredAnswer } from './tie-break'

export interface OutOfFoldFits {
  /** The labeled tasks (gold ≥ 0) in input order, and the outer fold of each. */
  readonly labeled: readonly TaskTallies[]
  readonly fold: Int32Array
  /** aggregators[j]: fitted without fold j (null when fold j is empty). */
  readonly aggregators: (Aggregator | null)[]
}

/**
 * Out-of-fold fits (docs/engine.md §7, §8.2): outer F folds seeded by `seed`; for fold j the model is
 * fitted on the other folds, its hyperparameters re-selected there by an inner F-fold CV seeded
 * `seed + 1 + j` — unless `hyper` fixes them, or `perFold` gives the ones a previous run selected
 * on these same labels (one per non-empty fold, in fold order: selection is deterministic, so the
 * fits are the same, without the search). ds-em runs once on `opts.pool` (no label is used,
 * so nothing leaks) and majority / majority-final need no fit: one aggregator serves every fold.
 * best-seat picks its seat on each training part, like any supervised method.
 * Cost ≈ F × cvSelect on (F−1)/F of the data.
 * @throws MethodRefused for a tuned method whose outer training part is empty (< 2 labels).
 */
export function outOfFoldFits(
  method: Method, labeled: readonly TaskTallies[], F: number, seed: number, hyper: Hyper | null = null, opts: FitOptions = {},
  perFold: readonly Hyper[] | null = null
): OutOfFoldFits {
  const L = labeled.filter((t) => t.gold >= 0)
  const fold = foldsOf(L, F, seed)
  const shared = isLabelFree(method) ? fitAggregator(method, L, hyper, seed, opts) : null
  const aggregators: (Aggregator | null)[] = []
  let nonEmptyFolds = 0
  for (let j = 0; j < F; j++) {
    const train = L.filter((_, i) => fold[i] !== j)
    if (train.length === L.length) {
      aggregators.push(null) // empty fold: skipped
      continue
    }
    const nonEmpty = nonEmptyFolds++
    if (shared !== null) {
      aggregators.push(shared)
      continue
    }
    if (isTuned(method) && hyper === null && train.length === 0) throw new MethodRefused(`${method}: too few labeled tasks for nested CV`)
    const h = !isTuned(method) ? {} : (hyper ?? perFold?.[nonEmpty] ?? selectHyper(method, train, seed + 1 + j, F, opts.labels))
    aggregators.push(fitAggregator(method, train, h, seed, opts))
  }
  return { labeled: L, fold, aggregators }
}

export interface NestedCvResult {
  /** One out-of-fold prediction per labeled task, in input order. */
  readonly predictions: Prediction[]
  /** Outer fold of each labeled task. */
  readonly fold: Int32Array
  /** Hyperparameters used in each non-empty outer fold, in fold order ({} when none). */
  readonly selected: Hyper[]
}

/**
 * Honest evaluation (docs/engine.md §7, BDA D.1): out-of-fold fits as above, each predicting its
 * held-out fold on the full trace; answers by the tie rule with `seed` (NO_ANSWER where the
 * method gives none, so it scores as wrong).
 */
export function nestedCv(method: Method, labeled: readonly TaskTallies[], F: number, seed: number, opts: FitOptions = {}): NestedCvResult {
  const { labeled: L, fold, aggregators } = outOfFoldFits(method, labeled, F, seed, null, opts)
  const predictions: Prediction[] = new Array(L.length)
  L.forEach((t, i) => {
    const agg = aggregators[fold[i]]!
    const p = agg.posteriorAt(t)
    predictions[i] = { p, gold: t.gold, answer: scoredAnswer(agg, t, p, seed) }
  })
  const selected = aggregators.filter((a): a is Aggregator => a !== null).map((a) => ({ ...a.hyper }))
  return { predictions, fold, selected }
}
