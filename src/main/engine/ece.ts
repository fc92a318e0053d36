import { topConfidence, type Prediction } from './scores'

/** One bin of a reliability diagram. */
export interface ReliabilityBin {
  /** Bin bounds on confidence (for equal-mass groups: the smallest and largest member). */
  lo: number
  hi: number
  n: number
  /** Mean top-label confidence and accuracy of the members (NaN when empty). */
  conf: number
  acc: number
}

function summarise(conf: Float64Array, correct: Uint8Array, members: ArrayLike<number>, lo: number, hi: number): ReliabilityBin {
  let c = 0
  let a = 0
  for (let j = 0; j < members.length; j++) {
    c += conf[members[j]]
    a += correct[members[j]]
  }
  const n = members.length
  return { lo, hi, n, conf: n ? c / n : NaN, acc: n ? a / n : NaN }
}

/** Top-label confidence and correctness of each prediction. */
export function confAndCorrect(preds: readonly Prediction[]): [Float64Array, Uint8Array] {
  const conf = Float64Array.from(preds, (x) => topConfidence(x.p))
  const correct = Uint8Array.from(preds, (x) => (x.answer === x.gold ? 1 : 0))
  return [conf, correct]
}

/** ECE = Σ_bins (n_b/n)·|acc_b − conf_b| over non-empty bins. */
export function eceOf(bins: readonly ReliabilityBin[], n: number): number {
  let e = 0
  for (const b of bins) if (b.n > 0) e += (b.n / n) * Math.abs(b.acc - b.conf)
  return e
}

/** Equal-width bins (docs/engine.md §7): bin = min(⌊B·conf⌋, B − 1), B = 10. O(n). */
export function equalWidthBins(preds: readonly Prediction[], B = 10): ReliabilityBin[] {
  return equalWidthBinsOf(...confAndCorrect(preds), B)
}

/** Equal-width bins of raw (confidence, correct) pairs — e.g. recalibrated confidences. */
export function equalWidthBinsOf(conf: Float64Array, correct: Uint8Array, B = 10): ReliabilityBin[] {
  const members: number[][] = Array.from({ length: B }, () => [])
  for (let i = 0; i < conf.length; i++) members[Math.min(Math.floor(B * conf[i]), B - 1)].push(i)
  return members.map((m, b) => summarise(conf, correct, m, b / B, (b + 1) / B))
}

/**
 * Equal-mass groups (docs/engine.md §7): stable ascending sort by confidence (input order breaks ties),
 * then G = 15 contiguous groups whose sizes differ by at most 1, the first (n mod G) one larger.
 * With n < G the last groups are empty. O(n log n).
 */
export function equalMassBins(preds: readonly Prediction[], G = 15): ReliabilityBin[] {
  return equalMassBinsOf(...confAndCorrect(preds), G)
}

/** Equal-mass groups of raw (confidence, correct) pairs, input order breaking ties. */
export function equalMassBinsOf(conf: Float64Array, correct: Uint8Array, G = 15): ReliabilityBin[] {
  const order = Array.from(conf.keys()).sort((a, b) => conf[a] - conf[b] || a - b)
  const n = order.length
  const base = Math.floor(n / G)
  const extra = n % G
  const bins: ReliabilityBin[] = []
  let at = 0
  for (let g = 0; g < G; g++) {
    const size = base + (g < extra ? 1 : 0)
    const m = order.slice(at, at + size)
    at += size
    bins.push(summarise(conf, correct, m, size ? conf[m[0]] : NaN, size ? conf[m[size - 1]] : NaN))
  }
  return bins
}

export const eceEw = (preds: readonly Prediction[]): number => eceOf(equalWidthBins(preds), preds.length)
export const eceEm = (preds: readonly Prediction[]): number => eceOf(equalMassBins(preds), preds.length)
