/**
 * The engine's verdict on one task, as a task's detail shows it: the posterior, each seat's weight
 * and pull, the rounds' bounds and the decision. Posteriors and weights are objects keyed by
 * candidate / seat id; arrays follow the round order.
 */
import type { DecisionKind } from '../vocabularies'

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
   * The evidence one +1 endorsement of this seat carries in this task: ln(μ_i(K − 1)/(1 − μ_i)) at
   * the task's K (docs/engine.md §3's one-coin log-likelihood ratio); null without a one-coin μ_i.
   */
  endorsementEvidence: number | null
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
  decidedAt: string
}

export interface Verdict {
  fitId: string
  method: string
  posterior: Record<string, number>
  /** The engine's answer on the whole trace (§6 tie rule). */
  answer: string
  seats: SeatView[]
  rounds: RoundView[]
  decision: DecisionView | null
  /** The decision under the fit before the current one (the console says "back in the queue"). */
  previous: { fitId: string; decision: DecisionKind } | null
}
