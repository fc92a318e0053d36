import type { Aggregator } from './aggregator'
import { hashMod } from './hash'
import type { TaskTallies } from './tallies'

/** Probabilities within this of the top are tied (docs/engine.md §6). */
export const TIE_EPS = 1e-12

/**
 * The seeded tie rule (docs/engine.md §6, BDA D.6): tied = the candidates within 1e-12 of the top
 * probability, in candidate order; answer = tied[H(`${seed}:${task}`) mod |tied|]. Never candidate
 * order alone — a deterministic rule can correlate with an attack. Hashes only when |tied| > 1.
 * Returns a candidate index. O(K) (+ one SHA-256 on ties).
 */
export function tieBreak(p: ArrayLike<number>, K: number, task: string, seed: number): number {
  let top = -Infinity
  for (let g = 0; g < K; g++) if (p[g] > top) top = p[g]
  let first = -1
  let n = 0
  for (let g = 0; g < K; g++) {
    if (p[g] >= top - TIE_EPS) {
      if (n === 0) first = g
      n++
    }
  }
  if (n === 1) return first
  let pick = hashMod(`${seed}:${task}`, n)
  for (let g = 0; g < K; g++) if (p[g] >= top - TIE_EPS && pick-- === 0) return g
  return first
}

/**
 * Ŷ_t: an aggregator's tie-broken answer on the moves of rounds ≤ `round` (docs/engine.md §6, §8.1);
 * a candidate index of the task. `scratch` (length ≥ K) avoids an allocation per call.
 */
export function answerAt(agg: Aggregator, t: TaskTallies, seed: number, round?: number, scratch?: Float64Array): number {
  const p = agg.posteriorAt(t, round, -1, scratch)
  return tieBreak(p, t.K, t.task, seed)
}

/**
 * The answer index of a method that gives none (best-seat on a task its seat did not answer). It
 * is no candidate, so accuracy (answer === gold) counts the task as wrong; Brier and NLL read the
 * posterior, uniform there, so they stay well defined.
 */
export const NO_ANSWER = -1

/**
 * The answer a prediction is scored with: NO_ANSWER when the aggregator gives none for t at the
 * cut (`hasAnswer`), else the tie rule on its posterior `p` (from the same cut).
 */
export function scoredAnswer(agg: Aggregator, t: TaskTallies, p: ArrayLike<number>, seed: number, round?: number): number {
  if (agg.hasAnswer !== undefined && !agg.hasAnswer(t, round)) return NO_ANSWER
  return tieBreak(p, t.K, t.task, seed)
}
