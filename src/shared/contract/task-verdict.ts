/**
 * The engine's verdict on one task, as a task's detail shows it: the posterior, each seat's weight
 * and pull, the rounds' bounds and the decision. Posteriors and weights are objects keyed by
 * candidate / seat id; arrays follow the round order.
 */
import type { DecisionKind } from '../vocabularies'

export type VoteUnit = 'standing answer' | 'endorsement'

export interface SeatView {
  seat: string
  model: string | null
  /** §4 reliability r_i (r̄ for a seat unseen in the labels); null for unsupervised methods. */
  reliability: number | null
  /** Endorsements on labeled tasks that r_i rests on; null for unsupervised methods. */
  evidence: number | null
  /** w_i (one-coin) or §5's mean log-ratio (confusion); null for baselines. */
  weight: number | null
  /**
   * The log-odds one counted vote of this seat adds to its candidate in this task, under the fit's
   * method (the verdict's `voteUnit` says what a vote is): the standing vote counts the seat's
   * standing answer once, w_i = ln(μ_i/(1 − μ_i)) (docs/engine.md §11, no (K − 1) term); the
   * one-coin methods count each +1 endorsement, ln(μ_i(K − 1)/(1 − μ_i)) at the task's K (§3).
   * Null without a one-coin μ_i (baselines, confusion).
   */
  voteEvidence: number | null
  /** Called adversarial only when r_i < 1/K (docs/engine.md §4). */
  adversarial: boolean
  seen: boolean
  /** Leave-one-seat-out: the posterior without this seat, and its total-variation shift. */
  influence: { posterior: Record<string, number>; shift: number }
}

export interface RoundView {
  round: number
  posterior: Record<string, number>
  social: Record<string, number>
  answer: string
  /** L_t and its k (null when unknown). */
  bound: number | null
  k: number | null
}

export interface DecisionView {
  fitId: string
  decision: DecisionKind
  spotCheck: boolean
  answer: string | null
  stopRound: number | null
  gap: number | null
  /** 1 − α: the bound a round must reach to act; null when α is unknown. */
  threshold: number | null
  /** `n`: the neighbourhood's size (binomial bound, ties at the radius included); absent when the fit did not report it. */
  why: { round: number; k: number; n?: number; qhat: number; bias: number; conc: number } | null
  reason: string | null
  /**
   * Set when the fit had too few blind (`random`) labels for any certificate: how many it had, and
   * the fewest the engine needs before a task can act (docs/engine.md §8.4, §8.7).
   */
  calibration: { size: number; needed: number } | null
  decidedAt: string
}

export interface Verdict {
  fitId: string
  method: string
  /** What one seat's vote is under this method: its standing answer (§11) or one +1 endorsement (§3); null when no per-vote figure applies. */
  voteUnit: VoteUnit | null
  posterior: Record<string, number>
  /** The engine's answer on the whole trace (§6 tie rule). */
  answer: string
  seats: SeatView[]
  rounds: RoundView[]
  decision: DecisionView | null
  /** The decision under the fit before the current one (the console says "back in the queue"). */
  previous: { fitId: string; decision: DecisionKind } | null
}
