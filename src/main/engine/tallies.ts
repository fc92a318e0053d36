import type { Trace } from '@shared/trace'
import { candidateIndex, candidateMap, codeMoves } from './endorsements'
import { slabInts } from './int-slab'
import type { SeatIndex } from './seat-index'

/**
 * One task's sufficient statistics per round cut (docs/engine.md §2), built once and read by every
 * aggregator, the CV grid search and the certificate — hot loops never touch move objects.
 *
 * Layout: cut r (0..R−1) covers every move with round ≤ rounds[r] (the distinct rounds of the
 * trace, ascending). `counts` holds one record of width W = 2K + 2 per (cut, local seat):
 *
 *   counts[(r·S + s)·W + 0]          N_i     endorsements so far
 *   counts[(r·S + s)·W + 1]          the seat's current answer (latest +1 candidate, cleared by
 *                                    a retract; −1 = none) — the certificate's `social` state (§8)
 *   counts[(r·S + s)·W + 2 + g]      c_i(g)  consistent with hypothesis g: (+1, g) or (−1, a ≠ g)
 *   counts[(r·S + s)·W + 2 + K + g]  e_i(g)  (+1, g) endorsements
 *
 * d_i(g) = N_i − c_i(g). The confusion model's expanded-cell counts x_i(g') (§5: (+1, a) → {a},
 * (−1, a) → every g' ≠ a) are exactly c_i(g'), so they are not stored twice.
 *
 * Local seat s is `seatIds[s]` (global `seats[s]`), every seat that made any move, in order of
 * its first move. `vote0[s]` is the candidate of its last round-0 propose/vote (−1 = none; §6).
 *
 * The typed arrays are views on a shared slab (int-slab.ts): to store them, serialise each view
 * (its byteOffset / byteLength), never `.buffer`.
 */
export interface TaskTallies {
  readonly task: string
  readonly candidates: readonly string[]
  readonly K: number
  /** Candidates joined by U+0001: equal keys ⇔ same candidate list in the same order. */
  readonly candKey: string
  /** Index of the gold / label candidate, −1 when unlabeled. */
  readonly gold: number
  readonly S: number
  readonly seatIds: readonly string[]
  readonly seats: Int32Array
  readonly R: number
  readonly rounds: readonly number[]
  readonly counts: Int32Array
  readonly vote0: Int32Array
}

/** Scratch for per-move temporaries (local seat, endorsement code); the engine is synchronous. */
let localOfScratch = new Int32Array(256)
let codesScratch = new Int32Array(256)
let stateScratch = new Int32Array(16)

/** Record width of one (cut, seat) entry. */
export const recordWidth = (K: number): number => 2 * K + 2
export const N_AT = 0
export const CURRENT_AT = 1
export const C_AT = 2

/**
 * Builds a task's tallies. `gold` overrides `trace.gold` (labels come from the label store,
 * not from hidden truth — docs/engine.md §10); a gold that is not a candidate counts as unlabeled.
 * O(moves + R·S·K) (O(R·moves) if rounds are out of order, which a valid trace never is).
 */
export function buildTallies(trace: Trace, seatIndex: SeatIndex, gold: string | null | undefined = trace.gold): TaskTallies {
  const K = trace.candidates.length
  const W = recordWidth(K)
  const moves = trace.moves
  const map = candidateMap(trace.candidates)
  const M = moves.length
  if (localOfScratch.length < M) {
    localOfScratch = new Int32Array(2 * M)
    codesScratch = new Int32Array(2 * M)
  }
  const localOf = localOfScratch // entries 0..M−1 are this trace's
  const codes = codesScratch

  const seatIds: string[] = []
  let seatMap: Map<string, number> | null = null // only for crowded tasks: a scan is cheaper below ~16 seats
  const rounds: number[] = []
  let sorted = true
  for (let m = 0; m < moves.length; m++) {
    const mv = moves[m]
    let s = seatMap === null ? seatIds.indexOf(mv.seat) : (seatMap.get(mv.seat) ?? -1)
    if (s < 0) {
      s = seatIds.push(mv.seat) - 1
      if (seatMap !== null) seatMap.set(mv.seat, s)
      else if (seatIds.length > 16) seatMap = new Map(seatIds.map((id, i) => [id, i]))
    }
    localOf[m] = s
    if (m > 0 && mv.round < moves[m - 1].round) sorted = false
    if (rounds.length === 0 || rounds[rounds.length - 1] !== mv.round) rounds.push(mv.round)
  }
  if (!sorted) {
    const distinct = [...new Set(rounds)].sort((a, b) => a - b)
    rounds.length = 0
    rounds.push(...distinct)
  }
  const S = seatIds.length
  const R = rounds.length
  codeMoves(trace, map, localOf, S, codes)

  const seats = slabInts(S)
  const vote0 = slabInts(S).fill(-1)
  const counts = slabInts(R * S * W)
  // Counts are order-free: add each endorsement into its own cut, then prefix-sum over cuts.
  for (let m = 0; m < moves.length; m++) {
    const code = codes[m]
    if (code === 0) continue
    const off = (cutIndex(rounds, moves[m].round) * S + localOf[m]) * W
    counts[off + N_AT]++
    if (code > 0) {
      counts[off + C_AT + code - 1]++
      counts[off + C_AT + K + code - 1]++
    } else {
      for (let g = 0; g < K; g++) if (g !== -code - 1) counts[off + C_AT + g]++
    }
  }
  for (let j = S * W; j < R * S * W; j++) counts[j] += counts[j - S * W]
  writeCurrentAnswers(moves, codes, localOf, rounds, sorted, S, W, counts)

  for (let m = 0; m < moves.length && moves[m].round <= 0; m++) {
    const mv = moves[m]
    if (mv.round === 0 && (mv.force === 'propose' || mv.force === 'vote') && codes[m] > 0) vote0[localOf[m]] = codes[m] - 1
  }
  if (!sorted) {
    for (let m = 0; m < moves.length; m++) {
      const mv = moves[m]
      if (mv.round === 0 && (mv.force === 'propose' || mv.force === 'vote') && codes[m] > 0) vote0[localOf[m]] = codes[m] - 1
    }
  }

  for (let s = 0; s < S; s++) seats[s] = seatIndex.index(seatIds[s])
  const g = gold == null ? -1 : candidateIndex(trace.candidates, map, gold)
  return { task: trace.task, candidates: trace.candidates, K, candKey: trace.candidates.join('\u0001'), gold: g, S, seatIds, seats, R, rounds, counts, vote0 }
}

/** Position of `round` in the ascending distinct `rounds` (binary search). */
function cutIndex(rounds: readonly number[], round: number): number {
  let lo = 0
  let hi = rounds.length - 1
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if (rounds[mid] < round) lo = mid + 1
    else hi = mid
  }
  return lo
}

/**
 * Current answer per (cut, seat): replay the moves of rounds ≤ rounds[r] in list order; a +1
 * endorsement sets it, a retract clears it. One pass when rounds are sorted (always, for a valid
 * trace), else one replay per cut.
 */
function writeCurrentAnswers(
  moves: Trace['moves'], codes: Int32Array, localOf: Int32Array,
  rounds: readonly number[], sorted: boolean, S: number, W: number, counts: Int32Array
): void {
  if (stateScratch.length < S) stateScratch = new Int32Array(2 * S)
  const state = stateScratch
  state.fill(-1, 0, S)
  let next = 0
  for (let r = 0; r < rounds.length; r++) {
    // Sorted (every valid trace): continue from the previous cut. Otherwise replay from the start.
    let m = sorted ? next : 0
    if (!sorted) state.fill(-1, 0, S)
    for (; m < moves.length; m++) {
      if (moves[m].round > rounds[r]) {
        if (sorted) break
        continue
      }
      if (moves[m].force === 'retract') state[localOf[m]] = -1
      else if (codes[m] > 0) state[localOf[m]] = codes[m] - 1
    }
    next = m
    for (let s = 0; s < S; s++) counts[(r * S + s) * W + CURRENT_AT] = state[s]
  }
}

/** Index of the last cut with round ≤ `round` (−1: no move yet). Default: the whole trace. */
export function cutAt(t: TaskTallies, round: number = Infinity): number {
  let r = t.R - 1
  while (r >= 0 && t.rounds[r] > round) r--
  return r
}

/** The same tallies with another gold (e.g. a human label); shares the count arrays. */
export function withGold(t: TaskTallies, gold: string | null): TaskTallies {
  return { ...t, gold: gold === null ? -1 : t.candidates.indexOf(gold) }
}

/** The full-trace statistics of local seat s: offset of its record in `counts` (or −1). */
export function finalRecord(t: TaskTallies, s: number): number {
  return t.R === 0 ? -1 : ((t.R - 1) * t.S + s) * recordWidth(t.K)
}
