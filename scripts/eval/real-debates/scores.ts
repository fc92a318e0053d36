import type { Trace } from '@shared/trace'
import { accuracy, brier, buildTallies, eceEw, nestedCv, SeatIndex, type Method, type Prediction } from '../../../src/main/engine'
import { runCell, splitOf, SPLITS } from '../aggregation/splits'
import { eceNoiseQuantile } from './ece-noise'

export interface MethodScores {
  method: Method
  /** Mean accuracy over the eval's 10 hashed splits (10 % of the gold as calibration). */
  splitAccuracy: number
  /** Nested CV (`evaluate`) on the whole file. */
  cvAccuracy: number
  brier: number
  eceEw: number
  /** The 90th percentile of ECE_ew over 200 seeded resamples with outcomes ~ Bernoulli(confidence). */
  eceNoise: number
}

/** Nested-CV predictions exactly as `evaluate` makes them (seed 0, 5 folds, the whole file as pool). */
function nestedPredictions(method: Method, traces: readonly Trace[]): Prediction[] {
  const seats = new SeatIndex()
  const all = traces.map((t) => buildTallies(t, seats))
  return nestedCv(method, all.filter((t) => t.gold >= 0), 5, 0, { pool: all, labels: all[0].candidates }).predictions
}

/** One method on one file: the split accuracy and the nested-CV scores. */
export function scoreMethod(method: Method, traces: readonly Trace[]): MethodScores {
  const splits = Array.from({ length: SPLITS }, (_, i) => splitOf(traces, i))
  const cell = runCell(method, splits, Infinity)
  if (cell.refused !== undefined) throw new Error(`${method} refused: ${cell.refused}`)
  const preds = nestedPredictions(method, traces)
  return {
    method,
    splitAccuracy: cell.scores.reduce((a, s) => a + s.accuracy, 0) / cell.scores.length,
    cvAccuracy: accuracy(preds),
    brier: brier(preds),
    eceEw: eceEw(preds),
    eceNoise: eceNoiseQuantile(preds)
  }
}
