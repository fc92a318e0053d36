/** Fits and their decisions: a fit is saved, its decisions appended in pages, then made current at once. */
import type { BoundKind } from '../../../shared/contract/settings'
import type { Actor, WriteResult } from './common'
import type { JsonObject } from './json'

export type FitInput = {
  method: string
  hyperparameters: JsonObject
  /** Seat id → reliability (and whatever per-seat figures the engine reports). */
  reliabilities: JsonObject
  certificate: JsonObject | null
  metrics: JsonObject | null
  /** The fit this one derives from (e.g. a decide run under a fitted model); null for a root. */
  parentFitId: string | null
  /** The concentration bound its certificate ran with (docs/engine.md §8.7); left out, none is stored and it reads as Hoeffding's. */
  bound?: BoundKind
}

export type FitRecord = Omit<FitInput, 'bound'> & {
  /** The stored bound; `hoeffding` for a fit that stored none (every fit made before schema 6). */
  bound: BoundKind
  id: string
  createdAt: string
  /** Set once, when the fit's decisions are saved. */
  decidedAt: string | null
  /** Its decisions: all, deferred, spot-checked (the last two null for fits decided before they were kept). */
  decisionCount: number
  deferredCount: number | null
  spotCount: number | null
}

/** A fit as the list of fits holds it: its record without the certificate, and whether it is current. */
export type ListedFit = Omit<FitRecord, 'certificate'> & { current: boolean }

/**
 * Why a bound fell short: the certificate's decomposition at the task's best round (docs/engine.md §8.9).
 * `n` (the binomial bound's neighbourhood size, ties at the radius included) only when the engine
 * reported it: Hoeffding fits, and fits made before schema 6, have none.
 */
export type DecisionWhy = { round: number; k: number; n?: number; qhat: number; bias: number; conc: number }

export type SaveDecisionsResult = { fitId: string; count: number; decidedAt: string }

/**
 * A page of decisions in columns (built by decision-page.ts): how a decide hands the store a
 * million rows. Nulls among numbers are NaN (a stored number is finite, so NaN is unambiguous). A
 * row's posterior is given in the order of one of the page's candidate lists (a council's tasks
 * share a few), which the store checks against the task's own candidates.
 */
export interface DecisionPage {
  readonly taskIds: string[]
  /** Per row: bit 0 set = act (else defer), bit 1 set = spot-checked. */
  readonly flags: Uint8Array
  readonly answers: (string | null)[]
  readonly reasons: (string | null)[]
  readonly stopRounds: Float64Array
  readonly gaps: Float64Array
  readonly disagreements: Float64Array
  /** The candidate lists the posteriors are in, and each row's list. */
  readonly lists: string[][]
  readonly listOf: Int32Array
  /** Row i's posterior is posteriors[at[i] … at[i] + lists[listOf[i]].length). */
  readonly posteriors: Float64Array
  readonly posteriorAt: Int32Array
  /** Row i's bound (and k) list is bounds[boundAt[i] … boundAt[i + 1]); boundLength[i] −1 = null. */
  readonly bounds: Float64Array
  readonly boundAt: Int32Array
  readonly boundLength: Int32Array
  /**
   * Row i's answer at each round (Ŷ_t, an index into lists[listOf[i]]), beside its bound:
   * roundAnswers[boundAt[i] … + boundLength[i]). With `peaks` (max_t L_t at the best round; NaN =
   * none) it is what a re-decide under another budget needs of the row (redecideRows).
   */
  readonly roundAnswers: Int32Array
  readonly peaks: Float64Array
  readonly ks: Float64Array
  readonly kAt: Int32Array
  readonly kLength: Int32Array
  /** Six per row: WHY_KEYS order, then `n` (NaN when not reported); all NaN for no decomposition. */
  readonly whys: Float64Array
}

/**
 * A what-if on the current fit's stored bounds: which of its tasks that still
 * have no live label would act at another action threshold 1 − α', without a refit.
 * `gapAtMost`: only rows whose stored gap is at most this can reach the threshold (the caller knows
 * the fit's α: gap = (1 − α) − max_t L_t), so the read walks the gap index instead of every row;
 * null reads every row with bounds.
 */
export type BudgetWhatIfInput = { threshold: number; gapAtMost: number | null }

export type BudgetWhatIfResult = {
  /** The current fit; null when none is decided (every figure 0). */
  fitId: string | null
  /** Its tasks without a live label (the acted and the deferred now). */
  undecided: number
  /** Of them, those with max_t L_t ≥ threshold. */
  acted: number
  /**
   * Σ over those of 1 − q̂ at their stop round (the first t with L_t ≥ threshold). The fit stores q̂
   * only at each task's best round; where the stop round is another one, 1 − L_t stands in for it,
   * never smaller (L_t = q̂ − b − conc with b, conc ≥ 0), so the sum is an upper bound then.
   */
  expectedWrong: number
  /** How many acted tasks' terms are 1 − L_t (their q̂ at the stop round is not stored). */
  boundedTerms: number
}

/**
 * A fit's what-if figures (../what-if-figures.ts): `budgetWhatIf` at any threshold, worked out once
 * from the fit's stored bounds. `entries` (one per distinct stored bound that is a running maximum
 * of its row) in chunks: `top` is a chunk's first (largest) bound, `bytes` its entries.
 */
export type WhatIfChunk = { top: number; bytes: Uint8Array }
export type WhatIfFigures = { entries: number; chunks: WhatIfChunk[] }

/**
 * A re-decide's copy of its parent fit's rows (docs/engine.md §8.8 on stored rounds): τ = the first
 * round with L_t ≥ `threshold`, the answer at τ (else the last round's), gap = threshold − peak.
 */
export type RedecideRowsInput = {
  parentFitId: string
  /** 1 − α of the budget in force. */
  threshold: number
  /** A reason that defers every task (the budget's: α ≤ 0, no usable k), else null. */
  reason: string | null
  /** Rounds per task (the certificate's T). */
  rounds: number
  afterTaskId: string | null
  limit: number
}

/** A decided fit's verdicts as it made them (labels given since included): what Audit shows as the live figures. */
export type FitStopRounds = {
  decided: number
  acted: number
  /** Σ over its acted tasks of (stop round + 1): with the deferred tasks counting T, the mean stop round of docs/engine.md §8. */
  actedRounds: number
}

export interface FitStore {
  saveFit(input: FitInput, actor: Actor): Promise<WriteResult<FitRecord>>
  /**
   * A fit's decisions are written once (a re-decide is a new fit with `parentFitId`), in pages:
   * each page one transaction, in columns (decision-page.ts), invisible (the fit is not current)
   * until `finishDecisions` makes all of them current at once.
   */
  appendDecisionPage(fitId: string, page: DecisionPage): Promise<WriteResult<number>>
  /**
   * Whether a re-decide under another budget can copy decided fit `fitId`'s rows
   * (`redecideRows`): its table keeps each row's rounds (fits decided since SQLite migration 9,
   * PostgreSQL migration 7).
   */
  canRedecideRows(fitId: string): Promise<boolean>
  /**
   * The next `copy.limit` rows of fit `copy.parentFitId` after `copy.afterTaskId` (task-id order)
   * into undecided fit `fitId`, their verdict under another threshold recomputed (the rest of each
   * row is the same), in one transaction like a page; the fit's counts grow with them. Returns the
   * rows copied and the last task id. Only from a fit `canRedecideRows` accepts.
   */
  redecideRows(fitId: string, copy: RedecideRowsInput): Promise<WriteResult<{ copied: number; last: string | null }>>
  /**
   * Builds queue index `index` (0, 1, …) of an undecided fit's decisions table in a transaction of
   * its own, and says how many are left: a decide builds them one by one before its finish, so no
   * other write waits behind all of them at once. Optional: the finish builds any still missing.
   */
  indexDecisions(fitId: string, index: number): Promise<WriteResult<number>>
  finishDecisions(fitId: string, actor: Actor): Promise<WriteResult<SaveDecisionsResult>>
  /** The newest fit, decided or not. */
  latestFit(): Promise<FitRecord | null>
  listFits(limit: number): Promise<ListedFit[]>
  getFit(fitId: string): Promise<FitRecord>
  /** The fit whose decisions are current (newest decided), or null. */
  currentFit(): Promise<FitRecord | null>
  /**
   * The current fit under another threshold (BudgetWhatIfInput): from its what-if figures when it
   * has them, else one pass over its stored bounds.
   */
  budgetWhatIf(input: BudgetWhatIfInput): Promise<BudgetWhatIfResult>
  /** A decided fit's what-if figures, worked out from its rows in one read; null for a fit without decisions. */
  buildWhatIfFigures(fitId: string): Promise<WhatIfFigures | null>
  /** Stores them (replacing any): the fit's what-if reads them from then on. Returns the entries stored. */
  saveWhatIfFigures(fitId: string, figures: WhatIfFigures): Promise<WriteResult<number>>
  /**
   * Gives fit `fitId`, whose rows copy `parentId`'s, its figures from the parent's: unchanged
   * (threshold null: the same rows) or a re-decide's copy at `threshold`. False: the parent has none.
   */
  copyWhatIfFigures(fitId: string, parentId: string, threshold: number | null): Promise<WriteResult<boolean>>
  /** Fit `fitId`'s acted and decided counts and its acted tasks' rounds; null for a fit without decisions. */
  fitStopRounds(fitId: string): Promise<FitStopRounds | null>
  /** Makes an earlier fit current again: a new fit copying its content and decisions. */
  rollbackFit(fitId: string, actor: Actor): Promise<WriteResult<FitRecord>>
}
