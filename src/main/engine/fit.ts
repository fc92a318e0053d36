import type { Aggregator } from './aggregator'
import { BestSeatAggregator } from './best-seat'
import { firstDifferingTask } from './candidate-set'
import { ConfusionAggregator, confusionCounts } from './confusion'
import { cvSelect } from './cv-select'
import { DsAggregator } from './ds-aggregator'
import { DsPerTaskAggregator } from './ds-per-task'
import { GatedAggregator } from './gated'
import { MajorityAggregator } from './majority'
import { MajorityFinalAggregator } from './majority-final'
import { isOneCoin, MethodRefused, validateHyper, type Hyper, type Method } from './methods'
import { OneCoinAggregator } from './one-coin'
import { StandingVoteAggregator } from './standing/aggregator'
import { fitStandingReliabilities } from './standing/reliability'
import { selectStandingVote } from './standing/select'
import { fitReliabilities } from './reliability'
import type { TaskTallies } from './tallies'

export interface FitOptions {
  /** ds-em / ds-em-full: the unlabeled pool EM runs on (default: the labeled tasks, gold unused). */
  pool?: readonly TaskTallies[]
  /** Confusion: the reference label order (default: the first labeled task's candidates). */
  labels?: readonly string[]
  /** CV folds when hyper is null (default 5). */
  folds?: number
}

/**
 * The deployed fit (docs/engine.md §7): with `hyper` null, F-fold CV on the labeled tasks (gold ≥ 0)
 * picks the hyperparameters (seeded folds, Brier, first-in-grid ties), then the model is refit
 * on all of them. Methods without hyperparameters ignore `hyper` (it must then be {} or null).
 * The returned aggregator evaluates any task at any round cut.
 * @throws MethodRefused (no labeled task to select from or, for best-seat, to pick its seat on;
 * confusion / ds-em-full on mixed candidate sets)
 * @throws RangeError for a malformed `hyper`.
 */
export function fitAggregator(
  method: Method, labeled: readonly TaskTallies[], hyper: Hyper | null, seed: number, opts: FitOptions = {}
): Aggregator {
  const L = labeled.filter((t) => t.gold >= 0)
  switch (method) {
    case 'majority':
      if (hyper !== null) validateHyper(method, hyper)
      return new MajorityAggregator()
    case 'majority-final':
      if (hyper !== null) validateHyper(method, hyper)
      return new MajorityFinalAggregator()
    case 'best-seat':
      if (hyper !== null) validateHyper(method, hyper)
      return new BestSeatAggregator(L)
    case 'gated':
      if (hyper !== null) validateHyper(method, hyper)
      return new GatedAggregator(L)
    case 'ds-em':
    case 'ds-em-full': {
      if (hyper !== null) validateHyper(method, hyper)
      const pool = opts.pool ?? labeled
      // One-coin ds-em also runs on per-task candidate sets; one shared set keeps DsAggregator, bit-exact.
      if (method === 'ds-em' && firstDifferingTask(pool) !== null) return new DsPerTaskAggregator(pool)
      return new DsAggregator(method, pool)
    }
    case 'standing-vote': {
      if (hyper !== null) validateHyper(method, hyper)
      if (L.length === 0 && hyper === null) throw new MethodRefused('standing-vote: no labeled task to select hyperparameters from; give them explicitly')
      const sel = selectStandingVote(L, seed, opts.folds ?? 5, hyper)
      return new StandingVoteAggregator(sel.hyper, fitStandingReliabilities(L), sel.recalibration)
    }
    default:
      break
  }
  const labels = opts.labels ?? L[0]?.candidates
  const h = hyper ?? cvSelect(method, L, seed, opts.folds ?? 5, labels).hyper
  validateHyper(method, h)
  if (isOneCoin(method)) return new OneCoinAggregator(method, h, fitReliabilities(L))
  if (labels === undefined) throw new MethodRefused('confusion needs a candidate set: no labeled task and no labels given')
  return new ConfusionAggregator(h, confusionCounts(L, labels))
}
