import type { Aggregator } from '../aggregator'
import type { CalibrationTask } from '../certificate'
import { foldsOf } from '../cv-select'
import { fitAggregator } from '../fit'
import { DEFAULT_METHOD, isLabelFree, isTuned, MethodRefused, type Hyper } from '../methods'
import { outOfFoldFits } from '../nested-cv'
import { selectHyper } from '../select-hyper'
import { roundsOf, taskRounds } from './round-states'
import type { CouncilFitConfig, CouncilFits, StateSource } from './types'

/**
 * The aggregator fits behind a certificate (docs/engine.md §7, §8.2):
 * - out-of-fold: §7 folds on C seeded by `seed`; fold j's aggregator is fitted on the other folds,
 *   its hyperparameters re-selected there with inner seed seed + 1 + j unless fixed — so no
 *   calibration state is ever computed in-sample;
 * - deployed: CV on all labels (seed) picks the hyperparameters, then a refit on all of them; it
 *   scores every new task.
 * Extra labeled tasks (not in C) join every training part and the deployed fit, never a fold.
 * Cost ≈ (F + 1) CV grid searches; everything after this is cheap.
 * @throws MethodRefused when C has no labeled task, or the method refuses the data (too few labels
 * for CV, mixed candidate sets for confusion / ds-em-full).
 */
export function fitCouncil(config: CouncilFitConfig): CouncilFits {
  const method = config.method ?? DEFAULT_METHOD
  const hyper = config.hyper ?? null
  const seed = config.seed ?? 0
  const F = config.folds ?? 5
  const C = config.calibration.filter((t) => t.gold >= 0)
  if (C.length === 0) throw new MethodRefused('certify: the calibration set has no labeled task')
  const extra = (config.extraLabeled ?? []).filter((t) => t.gold >= 0)
  // One label order for every fold's confusion fit (it keys cells by label; order only names them).
  const opts = { ...config.fitOptions, labels: config.fitOptions?.labels ?? C[0].candidates }

  const selected = hyper === null ? (config.selected ?? null) : null
  const deployed = fitAggregator(method, [...C, ...extra], hyper ?? selected?.deployed ?? null, seed, { ...opts, folds: F })
  // Methods that read no label (majority, majority-final, ds-em) need no refit per fold, as in outOfFoldFits.
  const labelFree = isLabelFree(method)
  let fold: Int32Array
  let outOfFold: (Aggregator | null)[]
  if (extra.length === 0) {
    const oof = outOfFoldFits(method, C, F, seed, hyper, opts, selected?.outOfFold ?? null)
    fold = oof.fold
    outOfFold = oof.aggregators
  } else {
    fold = foldsOf(C, F, seed)
    outOfFold = []
    let nonEmptyFolds = 0
    for (let j = 0; j < F; j++) {
      const inFold = C.filter((_, i) => fold[i] === j)
      if (inFold.length === 0) {
        outOfFold.push(null) // empty fold: skipped, as in outOfFoldFits
        continue
      }
      const nonEmpty = nonEmptyFolds++
      if (labelFree) {
        outOfFold.push(deployed)
        continue
      }
      const train = [...C.filter((_, i) => fold[i] !== j), ...extra]
      const h: Hyper = !isTuned(method) ? (hyper ?? {}) : (hyper ?? selected?.outOfFold[nonEmpty] ?? selectHyper(method, train, seed + 1 + j, F, opts.labels))
      outOfFold.push(fitAggregator(method, train, h, seed, opts))
    }
  }
  return { method, seed, T: roundsOf(C), calibration: C, fold, outOfFold, deployed }
}

/**
 * C as the certificate's input: each task's OUT-OF-FOLD states U_t and Z_t = 1{Ŷ_t = label}
 * (§8.2–8.3), t = 0..T−1.
 */
export function calibrationTasks(fits: CouncilFits, state: StateSource): CalibrationTask[] {
  return fits.calibration.map((t, i) => {
    const agg = fits.outOfFold[fits.fold[i]]
    if (agg === null) throw new Error(`certify: no out-of-fold fit for task ${t.task}`) // its own fold is never empty
    const r = taskRounds(agg, t, fits.T, state, fits.seed)
    return { id: t.task, states: r.states, z: Uint8Array.from(r.answers, (a) => (a === t.gold ? 1 : 0)) }
  })
}
