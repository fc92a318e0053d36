/**
 * What saving the engine settings would do, answered from the current fit's stored bounds
 * (`fits.whatIf`), before the settings are saved.
 */

/** A fit's tasks as they stand: acted, deferred (the queue) and both (those without a human label). */
export interface DecidedShare {
  undecided: number
  acted: number
  /** The queue: deferred tasks without a human label. */
  queue: number
}

/**
 * What saving the engine settings would do, read from the current fit's stored bounds.
 * Only an absolute β (and ε_act) can be answered so: any change the bounds depend on
 * needs a refit, and `needsRefit` names it.
 */
export interface BudgetWhatIf {
  fitId: string | null
  /** The settings whose change the stored bounds cannot answer (as Settings names them); empty when they can. */
  needsRefit: string[]
  /** Why there is nothing to compare with (no fit yet, no certificate); null when there is. */
  unavailable: string | null
  /**
   * The current fit's tasks now (labels since it left out); null when unavailable. With a proposal,
   * also its expected wrong actions, read the same way as the proposal's at the fit's own threshold.
   */
  current: (DecidedShare & { expectedWrong?: number; boundedTerms?: number }) | null
  /**
   * Under the draft settings; null when a refit is needed, nothing is available, or the draft keeps
   * the fit's own λ budget with nothing else the bounds depend on changed (then it is `current`).
   */
  proposed: (DecidedShare & {
    beta: number
    alpha: number
    /** 1 − α': the bound an acted task reaches. */
    threshold: number
    /** Σ over the acted tasks of 1 − q̂ at their stop round (an upper bound when `boundedTerms` > 0). */
    expectedWrong: number
    /** Acted tasks whose q̂ at the stop round the fit did not store: 1 − L_t stands in, never smaller. */
    boundedTerms: number
  }) | null
}
