import type { Trace } from '@shared/trace'
import { requireOneCandidateSet } from './candidate-set'
import { eceEm, eceEw } from './ece'
import { MethodRefused, type Hyper, type Method } from './methods'
import { nestedCv } from './nested-cv'
import { accuracy, brier, nll } from './scores'
import { SeatIndex } from './seat-index'
import { buildTallies } from './tallies'

export interface EvaluateResult {
  method: Method
  accuracy: number
  brier: number
  nll: number
  eceEw: number
  eceEm: number
  selected: Hyper[]
}

/**
 * The stateless `evaluate` command (docs/formats.md; docs/engine.md §7): nested CV over the tasks of
 * `traces` that have gold, metrics pooled over all out-of-fold predictions in file order.
 * ds-em runs unsupervised on the whole file (on per-task candidate sets when they differ). A
 * method that cannot run returns `refused` with the reason (mixed candidate sets for confusion /
 * ds-em-full; no gold; too few labels).
 */
export function runEvaluate(opts: { method: Method; traces: Trace[]; folds: number; seed: number }): EvaluateResult | { method: Method; refused: string } {
  const { method, traces, folds, seed } = opts
  try {
    if (method === 'confusion' || method === 'ds-em-full') requireOneCandidateSet(method, traces)
    const seats = new SeatIndex()
    const all = traces.map((t) => buildTallies(t, seats))
    const L = all.filter((t) => t.gold >= 0)
    if (L.length === 0) throw new MethodRefused('no task of the file has gold')
    const { predictions, selected } = nestedCv(method, L, folds, seed, { pool: all, labels: all[0].candidates })
    return {
      method,
      accuracy: accuracy(predictions),
      brier: brier(predictions),
      nll: nll(predictions),
      eceEw: eceEw(predictions),
      eceEm: eceEm(predictions),
      selected
    }
  } catch (e) {
    if (e instanceof MethodRefused) return { method, refused: e.message }
    throw e
  }
}
