import type { Trace } from '@shared/trace'

/**
 * A signed endorsement (s, a) of docs/engine.md §2 (BDA §3, D.7): sign +1 supports candidate `cand`,
 * −1 rejects it. `cand` indexes the trace's candidate list.
 */
export interface Endorsement {
  sign: 1 | -1
  cand: number
}

/** A label → index map for large candidate lists; null when a scan is cheaper (K ≤ 16). */
export function candidateMap(candidates: readonly string[]): Map<string, number> | null {
  if (candidates.length <= 16) return null
  const index = new Map<string, number>()
  candidates.forEach((c, i) => index.set(c, i))
  return index
}

/** Index of `answer` among the candidates, −1 if absent or undefined. O(K) or O(1). */
export function candidateIndex(candidates: readonly string[], map: Map<string, number> | null, answer: string | undefined): number {
  if (answer === undefined) return -1
  return map === null ? candidates.indexOf(answer) : (map.get(answer) ?? -1)
}

/**
 * Moves → signed endorsements (docs/engine.md §2), coded one per move in an Int32Array:
 * 0 = none, +(a + 1) = (+1, a), −(a + 1) = (−1, a).
 *
 * | propose a, vote a                  | (+1, a)                                              |
 * | concede to ANOTHER seat's move     | the target's endorsement, copied                      |
 * | challenge a move (any seat)        | the target's endorsement, sign flipped                |
 * | retract                            | (−1, a), a = the seat's latest +1 candidate before it |
 * | abstain, concede to one's own move | none                                                  |
 *
 * The retract's "latest +1" comes from any force and is not reset by the retract itself (a second
 * retract rejects the same candidate again). Only force, seat, target and answer are read — never
 * confidence or text (BDA Property 3). Traces are assumed valid (§1, enforced by the reader); an
 * invalid reference (unknown or later target, a target without endorsement, an answer that is not
 * a candidate) yields "none" instead of throwing. O(moves).
 */
export function endorsementCodes(trace: Trace): Int32Array {
  const local = new Map<string, number>()
  const localOf = Int32Array.from(trace.moves, (mv) => {
    let s = local.get(mv.seat)
    if (s === undefined) local.set(mv.seat, (s = local.size))
    return s
  })
  const out = new Int32Array(trace.moves.length)
  codeMoves(trace, candidateMap(trace.candidates), localOf, local.size, out)
  return out
}

const moveIndex = new Map<string, number>()
let latestPlus = new Int32Array(16)

/**
 * endorsementCodes into `out`, with the seats already numbered (`localOf[m]` < S). Reuses one
 * module-level id map and buffer: tallies are built by the hundred thousand, and allocation is
 * what costs there. Not re-entrant (the engine is synchronous).
 */
export function codeMoves(trace: Trace, map: Map<string, number> | null, localOf: Int32Array, S: number, out: Int32Array): void {
  const moves = trace.moves
  if (latestPlus.length < S) latestPlus = new Int32Array(2 * S)
  latestPlus.fill(0, 0, S)
  const useMap = moves.length > 64
  if (useMap) moveIndex.clear()
  for (let m = 0; m < moves.length; m++) {
    const move = moves[m]
    let code = 0
    switch (move.force) {
      case 'propose':
      case 'vote':
        code = candidateIndex(trace.candidates, map, move.answer) + 1
        break
      case 'concede':
      case 'challenge': {
        const t = targetIndex(moves, m, move.target, useMap)
        if (t === undefined) break
        if (move.force === 'challenge') code = -out[t]
        else if (moves[t].seat !== move.seat) code = out[t]
        break
      }
      case 'retract':
        code = -latestPlus[localOf[m]]
        break
      default:
        break // abstain
    }
    out[m] = code
    if (code > 0) latestPlus[localOf[m]] = code
    if (useMap && !moveIndex.has(move.id)) moveIndex.set(move.id, m)
  }
  if (useMap) moveIndex.clear()
}

/**
 * The index of the first move before `m` with id `id` (ids are unique in a valid trace; a target
 * must be strictly earlier), or undefined. A scan for short traces — a Map costs more there.
 */
function targetIndex(moves: Trace['moves'], m: number, id: string | undefined, useMap: boolean): number | undefined {
  if (id === undefined) return undefined
  if (useMap) return moveIndex.get(id)
  for (let j = 0; j < m; j++) if (moves[j].id === id) return j
  return undefined
}

/** The same endorsements as objects (null = none), for display and tests. */
export function endorsementsOf(trace: Trace): (Endorsement | null)[] {
  return Array.from(endorsementCodes(trace), (c) => (c === 0 ? null : { sign: c > 0 ? 1 : -1, cand: Math.abs(c) - 1 }))
}
