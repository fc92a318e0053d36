import type { Force } from '../../shared/trace'

/**
 * What the validator needs of docs/engine.md §2 (moves → signed endorsements): whether a target carries an
 * endorsement. It is tracked along the list of one task, exactly as the engine will derive it:
 * propose/vote a → (+1, a); concede to another seat's move → the target's, copied; challenge → the
 * target's, sign flipped; retract → (−1, the seat's latest +1 candidate), none without one; abstain
 * and a concede to one's own move → none.
 *
 * A move that failed validation has an UNKNOWN endorsement, and so does its seat's latest +1: the
 * validator then reports nothing that depends on it, so one bad move yields one error, not a cascade.
 */
export interface Endorsement {
  sign: 1 | -1
  candidate: string
}

export const UNKNOWN = Symbol('unknown endorsement')
export type Carried = Endorsement | null | typeof UNKNOWN

export class EndorsementTracker {
  private readonly byMove = new Map<string, Carried>()
  private readonly seatPositive = new Map<string, string | typeof UNKNOWN>()

  /** The endorsement of an earlier move, by id (UNKNOWN when not recorded). */
  of(moveId: string): Carried {
    return this.byMove.has(moveId) ? (this.byMove.get(moveId) as Carried) : UNKNOWN
  }

  /** Records a valid move and returns what it carries. */
  recordValid(move: { id: string; seat: string; force: Force; answer?: string; target?: string }, targetSeat: string | null): Carried {
    const carried = this.derive(move, targetSeat)
    this.store(move.id, move.seat, carried)
    return carried
  }

  /** Records a move that failed validation: nothing is known of it or of its seat's latest +1. */
  recordInvalid(id: string | null, seat: string | null): void {
    if (id !== null && !this.byMove.has(id)) this.byMove.set(id, UNKNOWN)
    if (seat !== null) this.seatPositive.set(seat, UNKNOWN)
  }

  private derive(move: { seat: string; force: Force; answer?: string; target?: string }, targetSeat: string | null): Carried {
    switch (move.force) {
      case 'propose':
      case 'vote':
        return { sign: 1, candidate: move.answer as string }
      case 'abstain':
        return null
      case 'retract': {
        const last = this.seatPositive.get(move.seat)
        if (last === UNKNOWN) return UNKNOWN
        return last === undefined ? null : { sign: -1, candidate: last }
      }
      case 'concede': {
        if (targetSeat === move.seat) return null
        return this.of(move.target as string)
      }
      case 'challenge': {
        const t = this.of(move.target as string)
        if (t === UNKNOWN || t === null) return t
        return { sign: t.sign === 1 ? -1 : 1, candidate: t.candidate }
      }
    }
  }

  private store(id: string, seat: string, carried: Carried): void {
    // Only the first move of an id is a target (later duplicates are errors themselves).
    if (!this.byMove.has(id)) this.byMove.set(id, carried)
    if (carried === UNKNOWN) this.seatPositive.set(seat, UNKNOWN)
    else if (carried !== null && carried.sign === 1) this.seatPositive.set(seat, carried.candidate)
  }
}
