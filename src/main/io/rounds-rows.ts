import type { JsonValue } from '../../shared/json'
import type { Delimiter } from './csv-records'
import { parseRecords } from './csv-records'
import { idField, isRecord, kindOf, LineErrors, stringField } from './json-fields'
import { parseJsonLine } from './json-line'
import { splitLines } from './lines'
import type { ReadError } from './read-error'
import { ROUNDS_COLUMNS } from './rounds-form'
import { rowBytes } from './task-size'
import { roundField } from './trace-moves'

/**
 * One row of the debate-rounds form: a seat's answer in a round. The task-level fields (`model`,
 * `gold`, `group`, `question`, `candidates`) are undefined when the file does not give them and
 * '' when it gives them empty; the reader compares them across a task's rows.
 */
export interface RoundRow {
  line: number
  /** The row's size in the file, in UTF-8 bytes (a CSV row's cells and delimiters): its share of its task's input. */
  bytes: number
  task: string
  round: number
  seat: string
  /** '' = no answer that round. */
  answer: string
  model?: string
  text?: string
  /** A CSV cell as its text; in JSONL any JSON value. */
  confidence?: JsonValue
  gold?: string
  group?: string
  question?: string
  /** As written: joined by `|` ('' = not given), or (JSONL) an array. */
  candidates?: string | string[]
}

export interface RoundRows {
  rows: RoundRow[]
  errors: ReadError[]
  /** Tasks with a row that could not be read: they are not built (their rows' errors say why). */
  badTasks: Set<string>
  /** The file cannot be read as rows at all (its header, or a quote that never closes). */
  fatal: boolean
}

const REQUIRED = ['task', 'round', 'seat', 'answer'] as const

/** A CSV/TSV file of the form: its header names the columns; each later record is one row. */
export function csvRoundRows(text: string, delimiter: Delimiter, file: string): RoundRows {
  const parsed = parseRecords(text, delimiter, file)
  const out: RoundRows = { rows: [], errors: parsed.errors, badTasks: new Set(), fatal: parsed.errors.length > 0 }
  const [header, ...records] = parsed.records
  if (header === undefined) return out
  const headerErrs = new LineErrors(file, header.line)
  const names = header.fields
  const repeated = ROUNDS_COLUMNS.filter((c) => names.indexOf(c) !== names.lastIndexOf(c))
  if (repeated.length > 0) headerErrs.add('extra-column', `the header names ${repeated.join(', ')} more than once`)
  const named = REQUIRED.filter((c) => names.includes(c))
  for (const c of REQUIRED)
    if (!names.includes(c)) headerErrs.add('missing-field', `the header has no "${c}" column: the file looks like debate rounds (its header names ${named.join(', ')}), and that form needs ${REQUIRED.join(', ')}`)
  if (!headerErrs.empty) {
    out.errors.push(...headerErrs.list)
    out.fatal = true
  }
  if (out.fatal) return out
  for (const rec of records) {
    const errs = new LineErrors(file, rec.line)
    const taskAt = names.indexOf('task')
    if (rec.fields[taskAt] !== undefined && rec.fields[taskAt] !== '') errs.task = rec.fields[taskAt]
    if (rec.fields.length !== names.length) {
      const rule = rec.fields.length < names.length ? 'missing-column' : 'extra-column'
      errs.add(rule, `expected ${names.length} columns (${names.join(', ')}), got ${rec.fields.length}`)
      reject(out, errs)
      continue
    }
    const obj: Record<string, string> = {}
    names.forEach((n, i) => (obj[n] = rec.fields[i]))
    const row = rowOf(obj, errs, rec.line, rowBytes(rec.fields), true)
    if (row === null) reject(out, errs)
    else out.rows.push(row)
  }
  return out
}

/** A JSONL file of the form: each non-blank line one row object. */
export function jsonlRoundRows(text: string, file: string): RoundRows {
  const out: RoundRows = { rows: [], errors: [], badTasks: new Set(), fatal: false }
  splitLines(text).forEach((line, i) => {
    const parsed = parseJsonLine(file, i + 1, line, out.errors)
    if (parsed === null || !parsed.parsed) return
    const { value, errs } = parsed
    if (!isRecord(value)) {
      errs.add('not-an-object', `a row must be a JSON object, got ${kindOf(value)}`)
      out.errors.push(...errs.list)
      return
    }
    if (typeof value.task === 'string' && value.task !== '') errs.task = value.task
    const row = rowOf(value, errs, i + 1, Buffer.byteLength(line, 'utf8') + 1, false)
    if (row === null) reject(out, errs)
    else out.rows.push(row)
  })
  return out
}

function reject(out: RoundRows, errs: LineErrors): void {
  out.errors.push(...errs.list)
  if (errs.task !== null) out.badTasks.add(errs.task)
}

/**
 * One row's fields, checked: `task` and `seat` are ids; `round` an integer ≥ 0 (a CSV cell its
 * decimal digits); `answer` a string (JSONL: or null, = no answer); the other fields strings or, in
 * JSONL, null (= not given). Null when any is wrong (every fault is in `errs`).
 */
function rowOf(obj: Record<string, unknown>, errs: LineErrors, line: number, bytes: number, csv: boolean): RoundRow | null {
  const where = 'the row'
  const task = idField(obj, 'task', true, errs, where)
  const seat = idField(obj, 'seat', true, errs, where)
  const round = csv ? csvRound(obj.round as string, errs) : roundField(obj, errs, where, null)
  let answer: string | undefined
  if (obj.answer === null) answer = ''
  else answer = stringField(obj, 'answer', true, errs, where)
  const opt = (key: string): string | undefined => (obj[key] === null ? undefined : stringField(obj, key, false, errs, where))
  const [model, text, gold, group, question] = ['model', 'text', 'gold', 'group', 'question'].map(opt)
  const candidates = candidatesOf(obj.candidates, errs)
  if (!errs.empty || task === undefined || seat === undefined || round === undefined || answer === undefined) return null
  const row: RoundRow = { line, bytes, task, round, seat, answer }
  if (model !== undefined) row.model = model
  if (text !== undefined) row.text = text
  // A CSV cell is always there: an empty one means no confidence; in JSONL any value given is kept.
  if (csv ? obj.confidence !== undefined && obj.confidence !== '' : obj.confidence !== undefined) row.confidence = obj.confidence as JsonValue
  if (gold !== undefined) row.gold = gold
  if (group !== undefined) row.group = group
  if (question !== undefined) row.question = question
  if (candidates !== undefined) row.candidates = candidates
  return row
}

function csvRound(cell: string, errs: LineErrors): number | undefined {
  const n = Number(cell)
  if (/^\d+$/.test(cell) && Number.isSafeInteger(n)) return n
  errs.add('bad-round', `the row's "round" must be an integer ≥ 0 and at most ${Number.MAX_SAFE_INTEGER} in decimal digits, got ${JSON.stringify(cell)}`)
  return undefined
}

function candidatesOf(v: unknown, errs: LineErrors): string | string[] | undefined {
  if (v === undefined || v === null) return undefined
  if (typeof v === 'string') return v
  if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return v as string[]
  errs.add('wrong-type', `the row's "candidates" must be a string joined by "|" or an array of strings, got ${kindOf(v)}`)
  return undefined
}
