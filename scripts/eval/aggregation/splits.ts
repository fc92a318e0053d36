import type { Trace } from '@shared/trace'
import {
  accuracy, brier, buildTallies, eceEw, isTuned, MethodRefused, runPosterior, SeatIndex, selectHyper,
  type Hyper, type Method, type Prediction
} from '../../../src/main/engine'
import { hashMod } from '../../../src/main/engine/hash'
import { NO_ANSWER } from '../../../src/main/engine/tie-break'

/** The evaluation protocol: 10 splits, 10 % of the gold as calibration in each. */
export const SPLITS = 10
export const SEED = 0

export interface Split {
  /** Gold tasks with H(`${i}:eval:${task}`) mod 10 = 0: the calibration set of split i. */
  calibration: Trace[]
  /** Every other task of the file, gold or not, in file order (ds-em also learns from the unlabeled ones). */
  traces: Trace[]
}

export function splitOf(all: readonly Trace[], i: number): Split {
  const calibration: Trace[] = []
  const traces: Trace[] = []
  for (const t of all) {
    if (t.gold != null && hashMod(`${i}:eval:${t.task}`, 10) === 0) calibration.push(t)
    else traces.push(t)
  }
  return { calibration, traces }
}

export interface SplitScore {
  accuracy: number
  brier: number
  eceEw: number
  /** Scored gold tasks. */
  n: number
  /** The CV-selected hyperparameters ({} for methods without any). */
  hyper: Hyper
  ms: number
}

/**
 * One method on one split, through the `posterior` contract: runPosterior with hyper null, so
 * tuned methods are CV-selected on the calibration part (docs/engine.md §7); the scores are over the
 * scored tasks that have gold. The selection is re-derived with selectHyper (same tallies, seed and
 * label order as runPosterior uses) only to report it; its time is not counted in `ms`.
 * @throws MethodRefused when the method cannot run on the data (the table says so).
 */
export function scoreSplit(method: Method, split: Split): SplitScore {
  const t0 = performance.now()
  const out = runPosterior({ method, traces: split.traces, calibration: split.calibration, hyper: null, seed: SEED })
  const ms = performance.now() - t0
  const preds: Prediction[] = []
  out.forEach((r, j) => {
    const t = split.traces[j]
    if (r.task !== t.task) throw new Error(`runPosterior out of order at ${j}: ${r.task} vs ${t.task}`)
    if (t.gold == null) return
    preds.push({
      p: Float64Array.from(t.candidates, (c) => r.posterior[c]),
      gold: t.candidates.indexOf(t.gold),
      answer: r.answer === null ? NO_ANSWER : t.candidates.indexOf(r.answer)
    })
  })
  return { accuracy: accuracy(preds), brier: brier(preds), eceEw: eceEw(preds), n: preds.length, hyper: selected(method, split), ms }
}

function selected(method: Method, split: Split): Hyper {
  if (!isTuned(method)) return {}
  const seats = new SeatIndex()
  const L = split.calibration.map((t) => buildTallies(t, seats))
  const labels = (split.calibration[0] ?? split.traces[0]).candidates
  return selectHyper(method, L, SEED, 5, labels)
}

export interface CellResult {
  method: Method
  /** Set when the method cannot run on the dataset. */
  refused?: string
  scores: SplitScore[]
  /** Splits not run because the cell's time budget was spent (stated in the table). */
  skipped: number
}

/**
 * Runs the splits of one (dataset, method) cell in order until all ran or `budgetMs` of engine
 * time is spent: a cell that is too slow for CI gets fewer splits, and the table says how many.
 */
export function runCell(method: Method, splits: readonly Split[], budgetMs: number): CellResult {
  const scores: SplitScore[] = []
  let spent = 0
  for (const split of splits) {
    if (spent > budgetMs) break
    try {
      const s = scoreSplit(method, split)
      spent += s.ms
      scores.push(s)
    } catch (error) {
      if (error instanceof MethodRefused) return { method, refused: error.message, scores: [], skipped: 0 }
      throw error
    }
  }
  return { method, scores, skipped: splits.length - scores.length }
}
