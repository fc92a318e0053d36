import type { JsonValue } from '../../shared/json'
import { FORCES, type Force, type Move } from '../../shared/trace'
import { EndorsementTracker } from './endorsement-tracker'
import { idField, kindOf, isRecord, stringField, type LineErrors } from './json-fields'
import { formatCount, MAX_MOVE_TEXT, MAX_MOVES_PER_TASK, MAX_ROUNDS_PER_TASK, MAX_SEATS_PER_TASK, MAX_TALLY_COUNTS, tallyCounts } from './limits'

const FORCE_SET: ReadonlySet<string> = new Set(FORCES)

/**
 * Validates the `moves` of one task against docs/engine.md §1 and returns them typed. `candidates` is
 * null when the task's own candidate list was invalid: answer checks are then skipped (already
 * reported once at task level). Every move error is reported; the list is usable only if none was.
 */
export function validateMoves(raw: unknown[], candidates: readonly string[] | null, errs: LineErrors): Move[] {
  // One error for the task, not one per move: past the limit the moves are not read at all.
  if (raw.length > MAX_MOVES_PER_TASK) {
    errs.add('too-many-moves', `the task has ${formatCount(raw.length)} moves; at most ${formatCount(MAX_MOVES_PER_TASK)} are allowed`)
    return []
  }
  const allIds = new Set<string>()
  for (const m of raw) if (isRecord(m) && typeof m.id === 'string') allIds.add(m.id)

  const candSet = candidates === null ? null : new Set(candidates)
  const seen = new Map<string, string | null>() // move id → seat of its first occurrence (null if invalid)
  const tracker = new EndorsementTracker()
  const moves: Move[] = []
  let lastRound: number | null = null
  const size = new TallySize()

  raw.forEach((m, index) => {
    const before = errs.list.length
    const where = `move #${index + 1}`
    if (!isRecord(m)) {
      errs.add('wrong-type', `${where} must be an object, got ${kindOf(m)}`)
      return
    }
    const id = idField(m, 'id', true, errs, where)
    const moveId = id ?? null
    const label = id === undefined ? where : `move ${id}`
    const seat = idField(m, 'seat', true, errs, label, moveId)
    const round = roundField(m, errs, label, moveId)
    const force = forceField(m, errs, label, moveId)
    size.see(seat, round, moveId)

    if (id !== undefined && seen.has(id)) errs.add('duplicate-move', `move id ${id} appears earlier in this task`, moveId)

    // Any JSON value is a valid confidence (docs/engine.md §1); only its size is limited, with the text's.
    const text = stringField(m, 'text', false, errs, label, moveId)
    const textSize = moveTextOverLimit(text, m.confidence)
    if (textSize !== null)
      errs.add('move-text-too-long', `${label} holds ${formatCount(textSize)} characters of text and confidence (as JSON); at most ${formatCount(MAX_MOVE_TEXT)} are allowed`, moveId)

    let answer: string | undefined
    if (force === 'propose' || force === 'vote') {
      answer = answerField(m, force, candSet, errs, label, moveId)
    }
    // An answer on any other force is ignored (docs/engine.md §1); it stays only in the raw object.

    let target: string | undefined
    let targetSeat: string | null = null
    if (force === 'challenge' || force === 'concede') {
      target = targetField(m, force, allIds, seen, errs, label, moveId)
      if (target !== undefined) {
        targetSeat = seen.get(target) ?? null
        const carried = tracker.of(target)
        if (carried === null)
          errs.add('target-no-endorsement', `${force} targets ${target}, which carries no endorsement (docs/engine.md §2)`, moveId)
      }
    }

    if (round !== undefined) {
      if (lastRound !== null && round < lastRound)
        errs.add('round-decreasing', `round ${round} comes after round ${lastRound}`, moveId)
      lastRound = round
    }

    if (id !== undefined && !seen.has(id)) seen.set(id, seat ?? null)
    if (errs.list.length > before || id === undefined || seat === undefined || round === undefined || force === undefined) {
      tracker.recordInvalid(moveId, seat ?? null)
      return
    }
    const move: Move = { id, round, seat, force }
    if (answer !== undefined) move.answer = answer
    if (target !== undefined) move.target = target
    if (m.confidence !== undefined) move.confidence = m.confidence as JsonValue
    if (text !== undefined) move.text = text
    tracker.recordValid(move, targetSeat)
    moves.push(move)
  })
  size.check(candidates, errs)
  return moves
}

/**
 * What a move's text and confidence count toward MAX_MOVE_TEXT — the text, and the confidence as
 * JSON — when that is past the limit, else null. Every move of every import passes here, so the
 * confidence is written out only when an upper bound of its JSON could be past the limit: a number
 * is at most 24 characters, a string at most 6 per character plus its quotes.
 */
export function moveTextOverLimit(text: string | undefined, confidence: unknown): number | null {
  const t = text?.length ?? 0
  let bound = t
  if (typeof confidence === 'number' || typeof confidence === 'boolean' || confidence === null) bound += 24
  else if (typeof confidence === 'string') bound += 6 * confidence.length + 2
  else if (confidence !== undefined) bound = Infinity
  if (bound <= MAX_MOVE_TEXT) return null
  const size = t + (confidence === undefined ? 0 : JSON.stringify(confidence).length)
  return size > MAX_MOVE_TEXT ? size : null
}

/**
 * The size of the task's tallies (limits.ts): distinct seats and rounds of its moves, and the move
 * that first went past each limit. A task past a limit is one error on its line, not one per move.
 */
class TallySize {
  private readonly seats = new Set<string>()
  private readonly rounds = new Set<number>()
  private seatOver: { seat: string; move: string | null } | null = null
  private roundOver: { round: number; move: string | null } | null = null

  see(seat: string | undefined, round: number | undefined, move: string | null): void {
    if (seat !== undefined && !this.seats.has(seat)) {
      this.seats.add(seat)
      if (this.seats.size === MAX_SEATS_PER_TASK + 1) this.seatOver = { seat, move }
    }
    if (round !== undefined && !this.rounds.has(round)) {
      this.rounds.add(round)
      if (this.rounds.size === MAX_ROUNDS_PER_TASK + 1) this.roundOver = { round, move }
    }
  }

  check(candidates: readonly string[] | null, errs: LineErrors): void {
    const S = this.seats.size
    const R = this.rounds.size
    if (this.seatOver !== null)
      errs.add(
        'too-many-seats',
        `the moves use ${formatCount(S)} distinct seats; a task may use at most ${MAX_SEATS_PER_TASK}; this move brings the ${MAX_SEATS_PER_TASK + 1}th, seat "${this.seatOver.seat}"`,
        this.seatOver.move
      )
    if (this.roundOver !== null)
      errs.add(
        'too-many-rounds',
        `the moves use ${formatCount(R)} distinct rounds; a task may use at most ${MAX_ROUNDS_PER_TASK}; this move brings the ${MAX_ROUNDS_PER_TASK + 1}th, round ${this.roundOver.round}`,
        this.roundOver.move
      )
    if (this.seatOver !== null || this.roundOver !== null || candidates === null) return
    const K = candidates.length
    const n = tallyCounts(R, S, K)
    if (n > MAX_TALLY_COUNTS)
      errs.add(
        'tallies-too-large',
        `the task's tallies would hold ${R} rounds × ${S} seats × ${2 * K + 2} (2K+2, K = ${formatCount(K)} candidates) = ${formatCount(n)} counts; at most ${formatCount(MAX_TALLY_COUNTS)} are allowed (docs/engine.md §2)`
      )
  }
}

export function roundField(m: Record<string, unknown>, errs: LineErrors, label: string, moveId: string | null): number | undefined {
  const r = m.round
  if (r === undefined) {
    errs.add('missing-field', `${label} has no "round"`, moveId)
    return undefined
  }
  if (typeof r !== 'number') {
    errs.add('wrong-type', `${label} "round" must be a number, got ${kindOf(r)}`, moveId)
    return undefined
  }
  // JSON `1.0` parses to 1 and is accepted: the rule is "no fractional part", not a lexical form.
  // Safe integers only: a round of 1e300 is an integer but no store column can hold it exactly.
  if (!Number.isSafeInteger(r) || r < 0) {
    errs.add('bad-round', `${label} "round" must be an integer ≥ 0 and at most ${Number.MAX_SAFE_INTEGER}, got ${r}`, moveId)
    return undefined
  }
  return r
}

function forceField(m: Record<string, unknown>, errs: LineErrors, label: string, moveId: string | null): Force | undefined {
  const f = stringField(m, 'force', true, errs, label, moveId)
  if (f === undefined) return undefined
  if (!FORCE_SET.has(f)) {
    errs.add('unknown-force', `${label} has force "${f}"; expected one of ${FORCES.join(', ')}`, moveId)
    return undefined
  }
  return f as Force
}

function answerField(
  m: Record<string, unknown>,
  force: Force,
  candSet: ReadonlySet<string> | null,
  errs: LineErrors,
  label: string,
  moveId: string | null
): string | undefined {
  if (m.answer === undefined || m.answer === null) {
    errs.add('missing-answer', `${label} is a ${force} without an answer`, moveId)
    return undefined
  }
  const a = stringField(m, 'answer', true, errs, label, moveId)
  if (a !== undefined && candSet !== null && !candSet.has(a)) {
    errs.add('answer-not-candidate', `${label} answers "${a}", which is not a candidate`, moveId)
    return undefined
  }
  return a
}

function targetField(
  m: Record<string, unknown>,
  force: Force,
  allIds: ReadonlySet<string>,
  earlier: ReadonlyMap<string, string | null>,
  errs: LineErrors,
  label: string,
  moveId: string | null
): string | undefined {
  if (m.target === undefined || m.target === null) {
    errs.add('missing-target', `${label} is a ${force} without a target`, moveId)
    return undefined
  }
  const t = stringField(m, 'target', true, errs, label, moveId)
  if (t === undefined) return undefined
  if (!allIds.has(t)) {
    errs.add('unknown-target', `${label} targets "${t}", which is no move of this task`, moveId)
    return undefined
  }
  if (!earlier.has(t)) {
    errs.add('target-not-earlier', `${label} targets "${t}", which is not strictly earlier in the list`, moveId)
    return undefined
  }
  return t
}
