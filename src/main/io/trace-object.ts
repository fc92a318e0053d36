import type { JsonValue } from '../../shared/json'
import { TRACE_FORMAT, type Force, type Move, type SeatInfo, type Trace } from '../../shared/trace'
import { idField, kindOf, isRecord, stringField, type LineErrors } from './json-fields'
import { formatCount, MAX_CANDIDATES, MAX_QUESTION_TEXT } from './limits'
import { validateMoves } from './trace-moves'

/** The `duplicate-task` rule's message (a file-level rule: the readers check it, not the validator). */
export const duplicateTaskMessage = (task: string): string => `task id ${task} appears on an earlier line`

/**
 * Validates one parsed trace line (docs/formats.md `arbiter.trace/1`, docs/engine.md §1) and returns it typed,
 * or null when any rule is broken (every broken rule is in `errs`). Duplicate task ids are a
 * file-level rule, checked by the reader. Unknown fields are not copied here: the caller keeps the
 * raw object for round-tripping.
 */
export function validateTraceObject(value: unknown, errs: LineErrors): Trace | null {
  if (!isRecord(value)) {
    errs.add('not-an-object', `a trace line must be a JSON object, got ${kindOf(value)}`)
    return null
  }
  const task = idField(value, 'task', true, errs, 'the trace')
  if (task !== undefined) errs.task = task

  if (value.format !== undefined && value.format !== TRACE_FORMAT)
    errs.add('bad-format', `"format" is ${JSON.stringify(value.format)}; expected "${TRACE_FORMAT}"`)

  const candidates = candidatesField(value, errs)
  const gold = goldField(value, candidates, errs)
  const question = stringField(value, 'question', false, errs, 'the trace')
  if (question !== undefined && question.length > MAX_QUESTION_TEXT)
    errs.add('question-too-long', `the question holds ${formatCount(question.length)} characters; at most ${formatCount(MAX_QUESTION_TEXT)} are allowed`)
  const group = stringField(value, 'group', false, errs, 'the trace')
  const seats = seatsField(value, errs)

  let moves: Trace['moves'] = []
  if (value.moves === undefined) errs.add('missing-field', 'the trace has no "moves"')
  else if (!Array.isArray(value.moves)) errs.add('wrong-type', `"moves" must be an array, got ${kindOf(value.moves)}`)
  else moves = validateMoves(value.moves, candidates, errs)

  if (!errs.empty || task === undefined || candidates === null) return null
  const trace: Trace = { task, candidates, moves }
  if (gold !== undefined) trace.gold = gold
  if (question !== undefined) trace.question = question
  if (group !== undefined) trace.group = group
  if (seats !== undefined) trace.seats = seats
  return trace
}

function candidatesField(value: Record<string, unknown>, errs: LineErrors): string[] | null {
  const c = value.candidates
  if (c === undefined) {
    errs.add('missing-field', 'the trace has no "candidates"')
    return null
  }
  if (!Array.isArray(c) || !c.every((x) => typeof x === 'string')) {
    errs.add('wrong-type', '"candidates" must be an array of strings')
    return null
  }
  const list = c as string[]
  if (list.length > MAX_CANDIDATES) {
    errs.add('too-many-candidates', `the task lists ${formatCount(list.length)} candidates; at most ${MAX_CANDIDATES} are allowed`)
    return null
  }
  // A Set, not indexOf: a hostile line may list hundreds of thousands of candidates.
  const seen = new Set<string>()
  const dup = list.find((x) => seen.size === seen.add(x).size)
  if (dup !== undefined) {
    errs.add('duplicate-candidate', `candidate "${dup}" is listed twice`)
    return null
  }
  if (list.length < 2) {
    errs.add('too-few-candidates', `a task needs at least 2 candidates, got ${list.length}`)
    return null
  }
  return list
}

/** `gold`: absent (undefined), null (unlabeled), or a candidate. */
function goldField(value: Record<string, unknown>, candidates: string[] | null, errs: LineErrors): string | null | undefined {
  const g = value.gold
  if (g === undefined || g === null) return g
  if (typeof g !== 'string') {
    errs.add('wrong-type', `"gold" must be a string or null, got ${kindOf(g)}`)
    return undefined
  }
  if (candidates !== null && !candidates.includes(g)) errs.add('gold-not-candidate', `gold "${g}" is not a candidate`)
  return g
}

function seatsField(value: Record<string, unknown>, errs: LineErrors): SeatInfo[] | undefined {
  const s = value.seats
  if (s === undefined) return undefined
  if (!Array.isArray(s)) {
    errs.add('wrong-type', `"seats" must be an array, got ${kindOf(s)}`)
    return undefined
  }
  const seats: SeatInfo[] = []
  s.forEach((x, i) => {
    if (!isRecord(x)) {
      errs.add('wrong-type', `seat #${i + 1} must be an object, got ${kindOf(x)}`)
      return
    }
    const id = idField(x, 'id', true, errs, `seat #${i + 1}`)
    const model = stringField(x, 'model', false, errs, `seat #${i + 1}`)
    if (id === undefined) return
    seats.push(model === undefined ? { id } : { id, model })
  })
  return seats
}

/**
 * The Trace that `validateTraceObject` returns for `value`, rebuilt WITHOUT checking it: only for a
 * line that was already validated (an import's second pass reads the same bytes — its file hash is
 * compared at the end), where the checks cost as much as everything else the pass does. It keeps
 * exactly what the validator keeps (an answer only on propose/vote, a target only on
 * challenge/concede, a confidence of any JSON value); a property test holds the two equal on every valid line.
 */
export function trustedTrace(value: Record<string, unknown>): Trace {
  const moves = (value.moves as Record<string, unknown>[]).map((m) => {
    const force = m.force as Force
    const move: Move = { id: m.id as string, round: m.round as number, seat: m.seat as string, force }
    if (force === 'propose' || force === 'vote') move.answer = m.answer as string
    else if (force === 'challenge' || force === 'concede') move.target = m.target as string
    if (m.confidence !== undefined) move.confidence = m.confidence as JsonValue
    if (typeof m.text === 'string') move.text = m.text
    return move
  })
  const trace: Trace = { task: value.task as string, candidates: value.candidates as string[], moves }
  if (value.gold !== undefined) trace.gold = value.gold as string | null
  if (typeof value.question === 'string') trace.question = value.question
  if (typeof value.group === 'string') trace.group = value.group
  if (Array.isArray(value.seats))
    trace.seats = (value.seats as Record<string, unknown>[]).map((s) => (typeof s.model === 'string' ? { id: s.id as string, model: s.model } : { id: s.id as string }))
  return trace
}
