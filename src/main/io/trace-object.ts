import { TRACE_FORMAT, type SeatInfo, type Trace } from '../../shared/trace'
import { idField, kindOf, isRecord, stringField, type LineErrors } from './json-fields'
import { validateMoves } from './trace-moves'

/**
 * Validates one parsed trace line (FORMATS.md `arbiter.trace/1`, ENGINE.md §1) and returns it typed,
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
