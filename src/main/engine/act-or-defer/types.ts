import type { Aggregator } from '../aggregator'
import type { BoundWhy, DeferReason, RoundState } from '../certificate'
import type { FitOptions } from '../fit'
import type { Hyper, Method } from '../methods'
import type { TaskTallies } from '../tallies'

/**
 * Types of the act-or-defer integration (docs/engine.md §8): the certificate of `../certificate`
 * driven by a fitted aggregator over `TaskTallies`. Every tallies object of one run (calibration,
 * extra labels, scored batches) must come from the same `SeatIndex`.
 */

/** Where U_t comes from (§8.2): the seats' `social` shares (default) or the rounded `posterior`. */
export type StateSource = 'social' | 'posterior'

export const STATE_SOURCES: readonly StateSource[] = ['social', 'posterior']

/** What to fit: the aggregator family, its hyperparameters and the calibration set C. */
export interface CouncilFitConfig {
  /** Default: the standing vote (§8 "Inputs", §11). */
  readonly method?: Method
  /** The method's full hyperparameter set, or null / absent: CV-selected (§7), inside every fold too. */
  readonly hyper?: Hyper | null
  /**
   * C: tasks whose tallies carry the label as gold (label source `random`, §10). Tasks with
   * gold < 0 are ignored. Their states are computed OUT-OF-FOLD (§8.2).
   */
  readonly calibration: readonly TaskTallies[]
  /**
   * Other labeled tasks (e.g. `escalation` labels) that may train the aggregator (§10: fitting uses
   * all labels by default) but never enter C: they join every training part, never a fold.
   */
  readonly extraLabeled?: readonly TaskTallies[]
  /** The seed of every H() convention: folds, ties, D_mod split, λ halves, spot-checks (default 0). */
  readonly seed?: number
  /** Outer (and inner) folds F (default 5, §7). */
  readonly folds?: number
  /**
   * What a previous fit on these same labels, method, seed and folds selected (a re-decide under
   * another budget): used instead of searching again. Selection is deterministic, so the fits are
   * the ones the search would give; `outOfFold` has one entry per non-empty fold, in fold order.
   * Ignored when `hyper` is given.
   */
  readonly selected?: { readonly deployed: Hyper; readonly outOfFold: readonly Hyper[] } | null
  /** ds-em pool / confusion label order (see `FitOptions`). */
  readonly fitOptions?: FitOptions
}

/** The fitted aggregators behind one certificate; state-source independent (the costly part). */
export interface CouncilFits {
  readonly method: Method
  readonly seed: number
  /** T = 1 + the largest round in C (§8.1). */
  readonly T: number
  /** C (gold ≥ 0), in input order. */
  readonly calibration: readonly TaskTallies[]
  /** §7 fold of each C task (seeded by `seed`). */
  readonly fold: Int32Array
  /** outOfFold[j]: fitted without fold j of C (null for an empty fold). */
  readonly outOfFold: readonly (Aggregator | null)[]
  /** The deployed fit (§7): CV on all labels, then refit on all of them. Scores new tasks. */
  readonly deployed: Aggregator
}

/** One task's verdict (§8.8–8.9, §10), in the order the batch was given. */
export interface TaskVerdict {
  readonly task: string
  readonly decision: 'act' | 'defer'
  /** τ, 0-based; null when deferred. */
  readonly stopRound: number | null
  /** Ŷ_τ when acting; Ŷ at the last round when deferred (the engine's best guess). */
  readonly answer: string
  /** L_t per round (null where 𝒦_used is empty). */
  readonly bound: readonly (number | null)[]
  /** The k behind each L_t (null where 𝒦_used is empty). */
  readonly k: readonly (number | null)[]
  /** The neighbourhood size n behind each L_t (≥ its k: ties at h included; null where 𝒦_used is empty). */
  readonly n: readonly (number | null)[]
  /** (1 − α) − max_t L_t (> 0 ⇔ deferred); null when α or the bound is unknown. */
  readonly gap: number | null
  /** n, q̂, b and the concentration term at the best round and its best k: "not enough nearby
   *  labels" (large conc or b) vs. "the council is unreliable in this state" (low q̂). */
  readonly why: BoundWhy | null
  /** Set when the task is deferred for a reason rather than by its bound. */
  readonly reason: DeferReason | null
  /** Routed to blind review regardless of the decision (§10 spot-check, keyed on the task id). */
  readonly spotCheck: boolean
  /** U_t per round (raw, before the ECDF) and Ŷ_t per round, for the console. */
  readonly states: readonly RoundState[]
  readonly answers: readonly string[]
}

/** docs/formats.md's `certify` summary line. Metrics that need gold are null unless every task has it. */
export interface CertifySummary {
  readonly act: number
  readonly accAct: number | null
  readonly wa: number | null
  readonly waOverBeta: number | null
  readonly rnd: number
  readonly beta: number | null
  readonly alpha: number | null
  readonly lambda: number | null
  readonly reason: DeferReason | null
}
