/**
 * Input and output types of the act-or-defer certificate (docs/engine.md §8; AoD §3).
 *
 * The certificate works on already-computed per-round states, so it does not depend on the
 * aggregator: the caller turns traces into `RoundState`s (out-of-fold for calibration, §8.2) and
 * correctness indicators, pads short traces by repeating their last state (§8.1), and hands the
 * plain data here. Nothing in this folder does I/O.
 */

/**
 * One round's raw (un-normalised) state U_t = (p1, Δ) (§8.2): p1 the top probability of the
 * state distribution (`social` shares or the rounded `posterior`), Δ = p1 − p2. See `states.ts`
 * for the two helpers that make them.
 */
export interface RoundState {
  readonly p1: number
  readonly delta: number
}

/**
 * A labeled calibration task of C (label source `random`, §10).
 * - `states[t]`, t = 0..T−1: the **out-of-fold** state after rounds ≤ t (the aggregator fitted on
 *   the other §7 folds), padded to T rounds by repeating the last state.
 * - `z[t]` = 1 when the aggregator's answer Ŷ_t was the gold, else 0 (§8.3).
 * Every calibration task must have the same number of rounds T = 1 + the largest round in C.
 */
export interface CalibrationTask {
  readonly id: string
  readonly states: readonly RoundState[]
  readonly z: ArrayLike<number>
}

/**
 * A task to certify. `states[t]` and `answers[t]` (= Ŷ_t, the aggregator's §6 tie-broken argmax on
 * rounds ≤ t) for t = 0..T−1, already cut / padded to the calibration T by the caller. A scored
 * task whose `id` is also in C is left out of D_loc for its own query (§8.7).
 */
export interface ScoredTask<A = string> {
  readonly id: string
  readonly states: readonly RoundState[]
  readonly answers: readonly A[]
}

/** Just the part of a task the bound needs (no answers): used for C2 in λ = auto. */
export interface StateTask {
  readonly id: string
  readonly states: readonly RoundState[]
}

/** Tunables; every default is the contract's (§8). */
export interface CertificateOptions {
  /** The engine seed used in every H() convention (default 0). */
  readonly seed?: number | string
  /** Calibration-failure budget δ (default 0.03). */
  readonly delta?: number
  /** Representation-gap budget ε_act (default 0.02). */
  readonly epsAct?: number
  /** The k family 𝒦 (default: the bound's — 128, 256, 512 for `hoeffding`; up to 4096 for `binomial`). */
  readonly ks?: readonly number[]
  /** Cap on the D_mod pairs of the modulus: first this many D_mod tasks in split-hash order (default 4000). */
  readonly modulusSubsample?: number
  /** Number of distance bins of the over-estimating modulus for r > 0 (default 2048). */
  readonly modulusBins?: number
  /** The concentration bound of §8.7: `binomial` (Clopper–Pearson on the neighbourhood; default) or `hoeffding` (AoD as published). */
  readonly bound?: BoundKind
}

/** §8.7's two bounds; `--bound` and the setting `engine.bound` name one. */
export type BoundKind = 'binomial' | 'hoeffding'

/** Fully resolved options. */
export interface ResolvedOptions {
  readonly seed: string
  readonly bound: BoundKind
  readonly delta: number
  readonly epsAct: number
  readonly ks: readonly number[]
  readonly modulusSubsample: number
  readonly modulusBins: number
}

/**
 * The budget β (§8): declared absolute β; relative β = λ·ê_T; or λ = auto (AoD B.5), the default
 * of the console (§10).
 */
export type Budget =
  | { readonly kind: 'absolute'; readonly beta: number }
  | { readonly kind: 'relative'; readonly lambda: number }
  | { readonly kind: 'auto' }

/**
 * Why a task is deferred without looking at its bound:
 * - `alpha-nonpositive`: α = β − (δ + ε_act) ≤ 0, the threshold 1 − α is unreachable by design;
 * - `no-usable-k`: 𝒦_used is empty (|D_loc| below the smallest k; per task when leaving the task
 *   itself out of D_loc empties it);
 * - `insufficient evidence`: λ = auto found no feasible λ.
 */
export type DeferReason = 'alpha-nonpositive' | 'no-usable-k' | 'insufficient evidence'

/** The decomposition L = q̂ − b − conc at the task's best round and that round's best k (§8.9). */
export interface BoundWhy {
  /** The best round (argmax_t L_t, first on ties), 0-based. */
  readonly round: number
  /** The best k at that round (smallest on ties). */
  readonly k: number
  /**
   * n: the neighbourhood's size at that k (every D_loc state within h, ties included, so n ≥ k).
   * Optional only so that fits stored before it was reported still read; the engine always sets it.
   */
  readonly n?: number
  /** q̂ = x/n: mean Z over the neighbourhood. */
  readonly qhat: number
  /** b = ω̂_t(h): the bias envelope at the k-NN radius. */
  readonly bias: number
  /**
   * The concentration term: `hoeffding` c_k = sqrt(ln(T·|𝒦_used|/δ) / (2k)); `binomial`
   * x/n − L^CP(x, n) at δ' = δ/(T·|𝒦_used|).
   */
  readonly conc: number
}

/** One task's certificate decision (§8.8–9). */
export interface TaskDecision<A = string> {
  readonly id: string
  readonly decision: 'act' | 'defer'
  /** τ, 0-based; null when deferred. */
  readonly stopRound: number | null
  /** Ŷ_τ when acting; Ŷ at the last round when deferred (the engine's best guess for the reviewer). */
  readonly answer: A
  /** L_t per round; null when 𝒦_used is empty for this task. */
  readonly bound: readonly (number | null)[]
  /** The k behind each L_t (smallest on ties); null when 𝒦_used is empty. */
  readonly k: readonly (number | null)[]
  /** The neighbourhood size n behind each L_t (≥ its k: ties at h included); null when 𝒦_used is empty. */
  readonly n: readonly (number | null)[]
  /** (1 − α) − max_t L_t (> 0 ⇔ deferred); null when α or the bound is unknown. */
  readonly gap: number | null
  readonly why: BoundWhy | null
  /** Set when the task is deferred for a reason rather than by its bound. */
  readonly reason: DeferReason | null
}
