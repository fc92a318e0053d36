import {
  boundMemo,
  boundsOfStates,
  buildCertificate,
  decideColumns,
  decideTasks,
  DEFAULT_SPOT_RATE,
  isSpotChecked,
  resolveBudget,
  type BoundKind,
  type BoundMemo,
  type BoundTable,
  type Budget,
  type CalibrationTask,
  type Certificate,
  type CertificateOptions,
  type ResolvedBudget,
  type DecidedColumns,
  type RoundState,
  type ScoredTask
} from '../certificate'
import type { Hyper, Method } from '../methods'
import type { TaskTallies } from '../tallies'
import { calibrationTasks } from './fit-council'
import { roundsInto, type RoundColumns } from './round-states'
import type { CouncilFits, StateSource, TaskVerdict } from './types'

// Read once: under some module transforms (tsx, vitest) an imported binding is a getter per access,
// and `prepare` calls these for every task of a decide.
const roundsOf = roundsInto
const spotChecked = isSpotChecked

/**
 * A built act-or-defer certificate over a fitted council (docs/engine.md §8): fit once, then decide
 * any number of scored batches, under any budget, without refitting.
 *
 *     const fits = fitCouncil({ method, hyper, calibration, seed })   // the costly part
 *     const aod = buildActOrDefer(fits, { state: 'social' })
 *     const batch = aod.prepare(tallies)                                // states, answers, bounds
 *     const { budget, tasks } = aod.decide(batch, { kind: 'auto' })    // β only moves 1 − α
 *
 * `prepare` is β-independent (bounds do not depend on β), so one batch serves a β sweep, and the
 * λ = auto search runs once per certificate (cached).
 */
export interface ActOrDeferConfig {
  /** §8.2 state source (default `social`). */
  readonly state?: StateSource
  /** §8.7's bound (`--bound`, the setting `engine.bound`; default `binomial`). λ = auto runs with it. */
  readonly bound?: BoundKind
  /** δ, ε_act, 𝒦, modulus settings; the seed is always the fits' seed, the bound is `bound` above. */
  readonly options?: Omit<CertificateOptions, 'seed' | 'bound'>
  /** Spot-check share ρ (§10, default 0.05). */
  readonly spotRate?: number
}

/** A scored batch with its β-independent part computed. */
export interface PreparedBatch {
  readonly tallies: readonly TaskTallies[]
  /** Per task: id, U_t and Ŷ_t (candidate names) for t = 0..T−1. */
  readonly tasks: readonly ScoredTask<string>[]
  /** Ŷ_t as candidate indices at [task·T + t] (for metrics against gold). */
  readonly answerIndex: Int32Array
  readonly table: BoundTable
  /** 1 where the task is spot-checked (§10; hashed once here, not per budget). */
  readonly spotCheck: Uint8Array
}

/** A scored batch's β-independent part in columns (a decide's pages: no object per task or round). */
export interface PreparedColumns {
  readonly tallies: readonly TaskTallies[]
  /** U_t and Ŷ_t (a candidate index) of task i at [i·T + t]. */
  readonly rounds: RoundColumns
  readonly table: BoundTable
  /** 1 where the task is spot-checked (§10). */
  readonly spotCheck: Uint8Array
}

export interface Decisions {
  readonly budget: ResolvedBudget
  readonly tasks: TaskVerdict[]
}

/** What a fit reports about its certificate (JSON-serialisable; for `fit --json` and the store). */
export interface CertificateInfo {
  readonly method: Method
  readonly hyper: Hyper
  /** Hyperparameters of each non-empty outer fold's out-of-fold fit. */
  readonly outOfFoldHyper: Hyper[]
  readonly state: StateSource
  /** §8.7's bound the certificate was built with. */
  readonly bound: BoundKind
  readonly seed: number
  readonly T: number
  readonly calibrationSize: number
  readonly sizeMod: number
  readonly sizeLoc: number
  readonly kUsed: readonly number[]
  readonly smoothers: readonly string[]
  /** ê_T: out-of-fold final-round error on C. */
  readonly finalRoundError: number
}

export class ActOrDefer {
  readonly state: StateSource
  readonly T: number
  /** C with its out-of-fold states (the certificate's input). */
  readonly calibration: readonly CalibrationTask[]
  readonly certificate: Certificate
  private readonly spotRate: number
  private readonly budgets = new Map<string, ResolvedBudget>()
  /** The certificate's query results, shared by every batch it prepares (a decide's pages). */
  private readonly memo: BoundMemo

  constructor(
    readonly fits: CouncilFits,
    config: ActOrDeferConfig = {}
  ) {
    this.state = config.state ?? 'social'
    this.spotRate = config.spotRate ?? DEFAULT_SPOT_RATE
    this.T = fits.T
    this.calibration = calibrationTasks(fits, this.state)
    this.certificate = buildCertificate(this.calibration, { ...config.options, bound: config.bound, seed: fits.seed }, fits.T)
    this.memo = boundMemo(this.certificate)
  }

  /**
   * States, answers (deployed fit), bounds and spot-check flags of a batch. A task that is also in
   * C is left out of D_loc for its own query (§8.7). O(n·T·(posterior + k-NN)); k-NN results are
   * cached per state.
   */
  prepare(tallies: readonly TaskTallies[]): PreparedBatch {
    const T = this.T
    const c = this.prepareColumns(tallies)
    const { p1, delta, answers } = c.rounds
    const tasks = tallies.map((t, i): ScoredTask<string> => {
      const states: RoundState[] = []
      const names: string[] = []
      for (let r = 0, o = i * T; r < T; r++, o++) {
        states.push({ p1: p1[o], delta: delta[o] })
        names.push(t.candidates[answers[o]])
      }
      return { id: t.task, states, answers: names }
    })
    return { tallies, tasks, answerIndex: answers, table: c.table, spotCheck: c.spotCheck }
  }

  /** `prepare` in columns: the same states, answers, bounds and spot-checks. */
  prepareColumns(tallies: readonly TaskTallies[]): PreparedColumns {
    const T = this.T
    const n = tallies.length
    const rounds: RoundColumns = { p1: new Float64Array(n * T), delta: new Float64Array(n * T), answers: new Int32Array(n * T) }
    const ids: string[] = new Array(n)
    const spotCheck = new Uint8Array(n)
    for (let i = 0; i < n; i++) {
      const t = tallies[i]
      roundsOf(this.fits.deployed, t, T, this.state, this.fits.seed, rounds, i)
      ids[i] = t.task
      spotCheck[i] = spotChecked(t.task, this.spotRate, this.fits.seed) ? 1 : 0
    }
    return { tallies, rounds, table: boundsOfStates(this.certificate, { ids, p1: rounds.p1, delta: rounds.delta }, this.memo), spotCheck }
  }

  /** The stopping rule over a batch prepared in columns (`decide` reports the same per task). */
  decideColumns(batch: PreparedColumns, budget: Budget): { budget: ResolvedBudget; decided: DecidedColumns } {
    const resolved = this.resolveBudget(budget)
    return { budget: resolved, decided: decideColumns(batch.table, resolved.alpha, resolved.reason) }
  }

  /** The budget in force (λ = auto is searched once per certificate and cached). */
  resolveBudget(budget: Budget): ResolvedBudget {
    const key = JSON.stringify(budget)
    let hit = this.budgets.get(key)
    if (hit === undefined) this.budgets.set(key, (hit = resolveBudget(this.certificate, this.calibration, budget)))
    return hit
  }

  /** Decide a batch (prepared, or raw tallies) under a budget: the stopping rule of §8.8. */
  decide(batch: PreparedBatch | readonly TaskTallies[], budget: Budget): Decisions {
    const b = isPrepared(batch) ? batch : this.prepare(batch)
    const resolved = this.resolveBudget(budget)
    const decisions = decideTasks(b.table, b.tasks, resolved.alpha, resolved.reason)
    const tasks = decisions.map((d, i): TaskVerdict => ({
      task: d.id,
      decision: d.decision,
      stopRound: d.stopRound,
      answer: d.answer,
      bound: d.bound,
      k: d.k,
      n: d.n,
      gap: d.gap,
      why: d.why,
      reason: d.reason,
      spotCheck: b.spotCheck[i] === 1,
      states: b.tasks[i].states,
      answers: b.tasks[i].answers
    }))
    return { budget: resolved, tasks }
  }

  info(): CertificateInfo {
    const c = this.certificate
    return {
      method: this.fits.method,
      hyper: { ...this.fits.deployed.hyper },
      outOfFoldHyper: this.fits.outOfFold.filter((a) => a !== null).map((a) => ({ ...a.hyper })),
      state: this.state,
      bound: c.options.bound,
      seed: this.fits.seed,
      T: this.T,
      calibrationSize: c.size,
      sizeMod: c.modIds.length,
      sizeLoc: c.locIds.length,
      kUsed: c.kUsed,
      smoothers: c.rounds.map((r) => r.smoother),
      finalRoundError: c.finalRoundError
    }
  }
}

function isPrepared(b: PreparedBatch | readonly TaskTallies[]): b is PreparedBatch {
  return !Array.isArray(b)
}

/** Builds the certificate of a fitted council for one state source (cheap next to `fitCouncil`). */
export function buildActOrDefer(fits: CouncilFits, config: ActOrDeferConfig = {}): ActOrDefer {
  return new ActOrDefer(fits, config)
}
