import type { Hyper, Method } from './methods'
import type { SeatIndex } from './seat-index'
import type { TaskTallies } from './tallies'

/** What a fit says about one seat, for `fit` reports and the console (docs/engine.md §4–§6). */
export interface SeatReport {
  seat: string
  /** Made a move in the labeled set L. */
  seen: boolean
  /** §4 Laplace reliability (r̄ for unseen seats); null for unsupervised baselines. */
  r: number | null
  /** Endorsements on labeled tasks behind r (supervised models). */
  evidence?: number
  /** One-coin prior mean μ_i. */
  mu?: number
  /** w_i (one-coin) or §5's mean log-ratio (confusion). */
  weight?: number
  /** Confusion P_i(observed | true): matrix[true][observed], rows/cols in `labels` order. */
  confusion?: { labels: string[]; matrix: number[][] }
  /** Gated: whether the seat passes the round-0 accuracy gate. */
  gated?: boolean
  /** ds-em: fitted one-coin accuracy; best-seat: accuracy of its final answers over L. */
  accuracy?: number
  /** best-seat: the seat it picked. */
  picked?: boolean
}

/**
 * A fitted aggregator: the parameters are frozen, tasks are evaluated one at a time at any round
 * cut (the certificate evaluates every round of every task). Implementations: one-coin
 * (shared / per-agent / tempered), confusion, majority, majority-final, best-seat, gated, Dawid–Skene.
 */
export interface Aggregator {
  readonly method: Method
  /** The hyperparameters in use (selected by CV or given); {} for methods without any. */
  readonly hyper: Hyper
  /**
   * π(· | moves of rounds ≤ `round`) in the task's candidate order (default: the whole trace).
   * `dropSeat` ≥ 0 leaves that local seat's evidence out (leave-one-seat-out influence, §6).
   * Writes into `out` when given (length ≥ K) and returns it.
   * @throws MethodRefused when the task's candidate set does not fit the model (confusion, ds-em).
   */
  posteriorAt(t: TaskTallies, round?: number, dropSeat?: number, out?: Float64Array): Float64Array
  /**
   * Whether the method gives an answer for t at the cut (default: always). best-seat gives none on
   * a task its seat did not answer: its posterior is uniform there and the task scores as wrong
   * (tie-break.ts `scoredAnswer`).
   */
  hasAnswer?(t: TaskTallies, round?: number, dropSeat?: number): boolean
  /** Seat weights of the seats that moved in t (§6; {} for baselines). */
  weights(t: TaskTallies): Record<string, number>
  /** One row per seat of the index. */
  seatReport(index: SeatIndex): SeatReport[]
}
