/**
 * The audit's method table (docs/engine.md §6–§7): every aggregation method scored by nested
 * CV on the labeled tasks — the numbers `evaluate` would print for the same set — with its 10
 * equal-width reliability bins. The baselines majority, majority-final and best-seat are the
 * reference rows; best-seat picks its seat inside each training part, so it is out of fold too.
 */
import type { MethodRow, ReliabilityBinView } from '../../../shared/api'
import {
  accuracy, brier, eceEm, eceEw, equalWidthBins, MethodRefused, nestedCv, requireOneCandidateSet,
  type Method, type Prediction, type TaskTallies
} from '../../engine'

/** Engine methods the audit scores, in METHODS order (the default, the standing vote, last); ds-em is left out (unsupervised, no labels to audit it with). */
export const AUDIT_METHODS: readonly Method[] = ['majority', 'majority-final', 'best-seat', 'gated', 'shared', 'per-agent', 'tempered', 'confusion', 'standing-vote']
/** The reference rows: baselines, not candidate methods. */
export const AUDIT_REFERENCES: readonly Method[] = ['majority', 'majority-final', 'best-seat']
export const AUDIT_FOLDS = 5

const finiteOrNull = (x: number): number | null => (Number.isFinite(x) ? x : null)

/** Scores of out-of-fold predictions, pooled (§7). */
export function scoreRow(method: string, predictions: readonly Prediction[], reference: boolean): MethodRow {
  const bins: ReliabilityBinView[] = equalWidthBins(predictions).map((b) => ({
    lo: b.lo, hi: b.hi, count: b.n, confidence: finiteOrNull(b.conf), accuracy: finiteOrNull(b.acc)
  }))
  return {
    method, n: predictions.length, accuracy: accuracy(predictions), brier: brier(predictions),
    eceEw: eceEw(predictions), eceEm: eceEm(predictions), bins, reference, refused: null
  }
}

/** A method that could not run: no scores (0, no bins) and the reason, so the table can say why. */
export function refusedRow(method: string, reason: string, reference: boolean): MethodRow {
  return { method, n: 0, accuracy: 0, brier: 0, eceEw: 0, eceEm: 0, bins: [], reference, refused: reason }
}

/**
 * One method's nested-CV row. Confusion is checked for one shared candidate set first, so the
 * refusal names the first differing task (as `evaluate` does) rather than a fold's internals.
 */
export function methodRow(method: Method, labeled: readonly TaskTallies[], pool: readonly TaskTallies[], seed: number): MethodRow {
  const reference = AUDIT_REFERENCES.includes(method)
  if (labeled.length === 0) return refusedRow(method, 'no labeled task yet: label tasks in Calibrate or Review', reference)
  try {
    if (method === 'confusion') requireOneCandidateSet(method, labeled)
    const { predictions } = nestedCv(method, labeled, AUDIT_FOLDS, seed, { pool, labels: labeled[0].candidates })
    return scoreRow(method, predictions, reference)
  } catch (e) {
    if (e instanceof MethodRefused) return refusedRow(method, e.message, reference)
    throw e
  }
}

/** Every row, in AUDIT_METHODS order. */
export function methodRows(
  labeled: readonly TaskTallies[], pool: readonly TaskTallies[], seed: number, onRow: (done: number, total: number) => void = () => {}
): MethodRow[] {
  const total = AUDIT_METHODS.length
  return AUDIT_METHODS.map((m, i) => {
    const row = methodRow(m, labeled, pool, seed)
    onRow(i + 1, total)
    return row
  })
}
