import type { Rng } from './prng'

/**
 * Configuration of a simulated council (see the generative model in `council.ts`).
 * Everything optional has a default that reproduces the paper's clean protocol.
 */

/** How a seat plays. A sleeper is honest until `turnAt`, then adversarial. */
export type Behaviour = 'honest' | 'adversarial' | 'sleeper'

export interface SeatSpec {
  id: string
  model?: string
  /** P(one look at the question yields the gold) — the seat's honest reliability, in [0, 1]. */
  reliability: number
  /** Per-group override of `reliability` (key = group name): models differ by domain. */
  reliabilityByGroup?: Record<string, number>
  behaviour?: Behaviour
  /** Sleeper: 0-based index in the task stream of its first hostile task. */
  turnAt?: number
  /** Sleeper: alternative to `turnAt` as a share of the stream, turnAt = round(share · tasks). */
  turnShare?: number
  /** While hostile: probability that each move is adversarial (the paper's p_wrong dose); default 1. */
  pWrong?: number
  /** Honest: P(a later-round stance copies the other seats' plurality instead of a fresh look); default 0. */
  conformity?: number
  /** Honest: P(abstaining on a move instead of answering); default 0. */
  abstainRate?: number
}

/** A question with its own candidates and gold (text groups); indices point into `candidates`. */
export interface QuestionItem {
  question: string
  candidates: string[]
  gold: number
  /** The most plausible wrong candidate: correlated honest errors and the adversary's pick. */
  distractor: number
  /** A short justification for candidate `c`, lowercase, no final period; used by move text. */
  argue?: (c: number, rng: Rng) => string
}

/** Makes the i-th question of a group from the question stream. */
export type QuestionMaker = (rng: Rng, index: number) => QuestionItem

export interface GroupSpec {
  /** Shown in audits by group; also the task-id prefix (slugged). */
  name: string
  /** Number of candidates when neither `labels` nor `questions` is given. */
  k?: number
  /** Fixed candidates (K = labels.length) when there is no question maker. */
  labels?: string[]
  /** Question maker; it decides candidates and gold. */
  questions?: QuestionMaker
  /** Relative share of the stream; default 1. */
  weight?: number
  /** Rounds for this group (overrides the council's). */
  rounds?: number
}

/** Per-move probabilities of the debate policy (council.ts explains each branch). */
export interface DebateStyle {
  /** Honest, stance unchanged, someone endorsed something else: challenge it. */
  challengeRate: number
  /** Honest, stance unchanged, someone endorsed the same answer: concede to (agree with) it. */
  agreeRate: number
  /** Honest, stance changed, someone endorsed the new stance: concede to that move. */
  switchConcedeRate: number
  /** Honest, stance changed, no concession made: retract the old answer instead of re-proposing. */
  retractRate: number
  /** Hostile: challenge a move that supports the gold. */
  attackRate: number
  /** Hostile: concede to an ally's wrong answer. */
  allyRate: number
}

export interface CouncilConfig {
  tasks: number
  seed: number | string
  seats: SeatSpec[]
  /** Rounds per task including round 0, 1–4; default 3. */
  rounds?: number
  /** Default: one group "binary" with candidates true / false. */
  groups?: GroupSpec[]
  /** Rotating adversary: `seats` fresh random non-hostile seats turn hostile on each task. */
  rotating?: { seats?: number; pWrong?: number }
  /** P(a wrong honest look lands on the task's distractor rather than a uniform wrong); default 0. */
  errorCorrelation?: number
  style?: Partial<DebateStyle>
  /** Emit self-reported `confidence` on answering moves (never read by the engine). */
  confidence?: boolean
  /** Emit debate prose in `text`. */
  text?: boolean
  /** Prefix of task ids instead of the group's slug (to import several streams into one store). */
  taskPrefix?: string
}

export const DEFAULT_STYLE: DebateStyle = {
  challengeRate: 0.3,
  agreeRate: 0.5,
  switchConcedeRate: 0.85,
  retractRate: 0.15,
  attackRate: 0.75,
  allyRate: 0.6
}
