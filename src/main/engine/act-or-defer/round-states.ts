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
 * Per-round states and answers of one task (docs/engine.md §8.1–8.2), straight from its tallies.
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

/** Per-round states and answers of a batch in columns: task i's round t at [i·T + t]. */
export interface RoundColumns {
  readonly p1: Float64Array
  readonly delta: Float64Array
  /** Ŷ_t as a candidate index of its task. */
  readonly answers: Int32Array
}

/**
 * U_t and Ŷ_t for t = 0..T−1 of task t, written at [i·T + t] of `out`: Ŷ_t is always the
 * aggregator's §6 tie-broken argmax — also under the social state — so an adversarial seat cannot
 * capture what is acted on. The posterior state rounds p1 and Δ of the raw posterior to the 0.05
 * grid. Rounds whose cut equals the previous round's reuse its result: an aggregator sees only the
 * moves of rounds ≤ t, so equal cuts give equal posteriors. O(T · posterior) per task.
 */
export function roundsInto(agg: Aggregator, t: TaskTallies, T: number, state: StateSource, seed: number, out: RoundColumns, i: number): void {
  const [p, shares] = scratch(t.K)
  const { p1, delta, answers } = out
  let prevCut = -2
  for (let r = 0, o = i * T; r < T; r++, o++) {
    const at = cut(t, r)
    if (at === prevCut) {
      p1[o] = p1[o - 1]
      delta[o] = delta[o - 1]
      answers[o] = answers[o - 1]
      continue
    }
    prevCut = at
    agg.posteriorAt(t, r, -1, p)
    answers[o] = tieRule(p, t.K, t.task, seed)
    const u = state === 'social' ? shareState(social(t, r, shares)) : gridState(p)
    p1[o] = u.p1
    delta[o] = u.delta
  }
}

/** `roundsInto` for one task, as objects. */
export function taskRounds(agg: Aggregator, t: TaskTallies, T: number, state: StateSource, seed: number): TaskRounds {
  const out: RoundColumns = { p1: new Float64Array(T), delta: new Float64Array(T), answers: new Int32Array(T) }
  roundsInto(agg, t, T, state, seed, out, 0)
  const states: RoundState[] = new Array(T)
  for (let r = 0; r < T; r++) states[r] = r > 0 && out.p1[r] === out.p1[r - 1] && out.delta[r] === out.delta[r - 1] ? states[r - 1] : { p1: out.p1[r], delta: out.delta[r] }
  return { states, answers: out.answers }
}
