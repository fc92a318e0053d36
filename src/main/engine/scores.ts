/**
 * Scores of probabilistic predictions (docs/engine.md §7, BDA App. B). A prediction is the posterior
 * `p` (candidate order), the gold index and the tie-broken answer index.
 */
export interface Prediction {
  readonly p: ArrayLike<number>
  readonly gold: number
  readonly answer: number
}

/** Probabilities are clipped at this before the log in NLL. */
export const NLL_CLIP = 1e-12

/** Share of predictions whose tie-broken answer is the gold. */
export function accuracy(preds: readonly Prediction[]): number {
  let ok = 0
  for (const x of preds) if (x.answer === x.gold) ok++
  return ok / preds.length
}

/** Multiclass Brier of one prediction: Σ_g (π(g) − 1{g = g*})². */
export function brierOne(p: ArrayLike<number>, K: number, gold: number): number {
  let s = 0
  for (let g = 0; g < K; g++) {
    const d = p[g] - (g === gold ? 1 : 0)
    s += d * d
  }
  return s
}

/** Mean multiclass Brier. */
export function brier(preds: readonly Prediction[]): number {
  let s = 0
  for (const x of preds) s += brierOne(x.p, x.p.length, x.gold)
  return s / preds.length
}

/** Mean −ln max(π(g*), 1e-12). */
export function nll(preds: readonly Prediction[]): number {
  let s = 0
  for (const x of preds) s -= Math.log(Math.max(x.p[x.gold], NLL_CLIP))
  return s / preds.length
}

/** Top-label confidence: the largest posterior probability. */
export function topConfidence(p: ArrayLike<number>): number {
  let top = -Infinity
  for (let g = 0; g < p.length; g++) if (p[g] > top) top = p[g]
  return top
}
