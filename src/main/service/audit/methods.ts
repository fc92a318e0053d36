/**
 * The audit's method table (issue #6; ENGINE.md §6–§7): every aggregation method scored by nested
 * CV on the labeled tasks — the numbers `evaluate` would print for the same set — with its 10
 * equal-width reliability bins, plus two reference rows: majority, and the best single seat.
 */
import type { MethodRow, ReliabilityBinView } from '../../../shared/api'
import {
  accuracy, brier, eceEm, eceEw, equalWidthBins, MethodRefused, nestedCv, requireOneCandidateSet,
  type Method, type Prediction, type TaskTallies
} from '../../engine'

/** Engine methods the audit scores, in METHODS order; ds-em is left out (unsupervised, no labels to audit it with). */
export const AUDIT_METHODS: readonly Method[] = ['majority', 'gated', 'shared', 'per-agent', 'tempered', 'confusion']
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
  const reference = method === 'majority'
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

export const BEST_SEAT_PREFIX = 'best single seat'

/**
 * The best single seat (BDA B.1's reference): each seat's last round-0 propose/vote as a one-hot
 * prediction on the labeled tasks where it gave one. Nothing is fitted, so there is no CV; the
 * pick itself is in-sample, which flatters this row slightly. Only seats that answered at least
 * half as many labeled tasks as the busiest seat compete — a seat right on its 3 answers is not a
 * reference. Ties: more answers, then the seat first seen.
 */
export function bestSeatRow(labeled: readonly TaskTallies[]): MethodRow {
  const bySeat = new Map<string, Prediction[]>()
  for (const t of labeled) {
    for (let s = 0; s < t.S; s++) {
      const a = t.vote0[s]
      if (a < 0) continue
      const p = new Float64Array(t.K)
      p[a] = 1
      let preds = bySeat.get(t.seatIds[s])
      if (preds === undefined) bySeat.set(t.seatIds[s], (preds = []))
      preds.push({ p, gold: t.gold, answer: a })
    }
  }
  const most = Math.max(0, ...[...bySeat.values()].map((p) => p.length))
  let best: { seat: string; preds: Prediction[]; acc: number } | null = null
  for (const [seat, preds] of bySeat) {
    if (2 * preds.length < most) continue
    const acc = accuracy(preds)
    if (best === null || acc > best.acc || (acc === best.acc && preds.length > best.preds.length)) best = { seat, preds, acc }
  }
  if (best === null) return refusedRow(BEST_SEAT_PREFIX, 'no seat gave a round-0 answer on a labeled task', true)
  return scoreRow(`${BEST_SEAT_PREFIX} (${best.seat})`, best.preds, true)
}

/** Every row: the engine methods in AUDIT_METHODS order, then the best single seat. */
export function methodRows(
  labeled: readonly TaskTallies[], pool: readonly TaskTallies[], seed: number, onRow: (done: number, total: number) => void = () => {}
): MethodRow[] {
  const total = AUDIT_METHODS.length + 1
  const rows = AUDIT_METHODS.map((m, i) => {
    const row = methodRow(m, labeled, pool, seed)
    onRow(i + 1, total)
    return row
  })
  rows.push(bestSeatRow(labeled))
  onRow(total, total)
  return rows
}
