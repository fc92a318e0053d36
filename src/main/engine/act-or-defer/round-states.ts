import type { Aggregator } from '../aggregator'
import { posteriorState, stateOf, type RoundState } from '../certificate'
import { socialAt } from '../social'
import { cutAt, type TaskTallies } from '../tallies'
import { tieBreak } from '../tie-break'
import type { StateSource } from './types'

// Read once: under some module transforms (tsx, vitest) an imported binding is a getter per access,
// and `taskRounds` calls these for every round of every task a decide scores.
const cut = cutAt
const social = socialAt
const shareState = stateOf
const gridState = posteriorState
const tieRule = tieBreak

/**
 * Per-round states and answers of one task (ENGINE.md §8.1–8.2), straight from its tallies.
 * Round t covers the moves of rounds ≤ t (`cutAt`), so a trace shorter than T repeats its last
 * state and a longer one is cut to T rounds; a task with no move yet at t has the uniform social
 * state and the prior's answer.
 */

/** T = 1 + the largest round in C (§8.1); 1 when C has no move at all. */
export function roundsOf(calibration: readonly TaskTallies[]): number {
  let top = 0
  for (const t of calibration) if (t.R > 0 && t.rounds[t.R - 1] > top) top = t.rounds[t.R - 1]
  return top + 1
}

export interface TaskRounds {
  readonly states: RoundState[]
  /** Ŷ_t as a candidate index of the task. */
  readonly answers: Int32Array
}

/** Scratch distributions by K: `stateOf` reads the whole array, so each K needs its own length. */
const scratchByK = new Map<number, [Float64Array, Float64Array]>()
function scratch(K: number): [Float64Array, Float64Array] {
  let s = scratchByK.get(K)
  if (s === undefined) scratchByK.set(K, (s = [new Float64Array(K), new Float64Array(K)]))
  return s
}

/**
 * U_t and Ŷ_t for t = 0..T−1: Ŷ_t is always the aggregator's §6 tie-broken argmax — also under
 * the social state — so an adversarial seat cannot capture what is acted on. The posterior state
 * rounds p1 and Δ of the raw posterior to the 0.05 grid.
 * Rounds whose cut equals the previous round's reuse its result: an aggregator sees only the moves
 * of rounds ≤ t, so equal cuts give equal posteriors. O(T · posterior) per task.
 */
export function taskRounds(agg: Aggregator, t: TaskTallies, T: number, state: StateSource, seed: number): TaskRounds {
  const [p, shares] = scratch(t.K)
  const states: RoundState[] = new Array(T)
  const answers = new Int32Array(T)
  let prevCut = -2
  for (let r = 0; r < T; r++) {
    const at = cut(t, r)
    if (at === prevCut) {
      states[r] = states[r - 1]
      answers[r] = answers[r - 1]
      continue
    }
    prevCut = at
    agg.posteriorAt(t, r, -1, p)
    answers[r] = tieRule(p, t.K, t.task, seed)
    states[r] = state === 'social' ? shareState(social(t, r, shares)) : gridState(p)
  }
  return { states, answers }
}
