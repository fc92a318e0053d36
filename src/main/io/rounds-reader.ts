import { readFile } from 'node:fs/promises'
import { TRACE_FORMAT, type Force, type Trace } from '../../shared/trace'
import type { JsonValue } from '../../shared/json'
import { delimiterFor, isCsvPath, type CsvDialect } from './csv-dialect'
import type { TextSource } from './csv-reader'
import { LineErrors } from './json-fields'
import type { ReadError } from './read-error'
import { csvRoundRows, jsonlRoundRows, type RoundRow, type RoundRows } from './rounds-rows'
import { checkTaskSize } from './task-size'
import { validateTraceObject } from './trace-object'
import type { TraceReadResult } from './trace-reader'

export interface RoundsReadResult extends TraceReadResult {
  /** Each trace's line (same index): the first line of its task's rows, where its task-level errors are. */
  lines: number[]
  /** The file could not be read as rows (its header, or a quote that never closes): nothing is built. */
  fatal: boolean
}

/**
 * Debate rounds (docs/formats.md "Debate rounds") → traces. CSV or TSV (by the name, as for the
 * label-aggregation form) or JSONL; one row per seat per round.
 *
 * A task's rows may stand anywhere in the file, so no task can be built before the whole file is
 * read: the file is read whole and its rows kept until the end, then each task is built, checked by
 * the trace validator (the same rules and limits as a trace line: docs/engine.md §1, limits.ts) and its
 * rows dropped. Memory is about the file's size (its cells are most of it); these files are a
 * council's logs (the real ones in `../data` are at most 6 MB), and every task built is bounded by
 * the trace limits.
 *
 * Errors name the file, the row's line (a task-level error: the line of the task's first row), the
 * task, the move (`r<round>-<seat>`) where there is one, and the rule. A task with any error is left
 * out of `traces` whole, so `--skip-invalid` skips whole tasks.
 */
export function readRoundsText(source: TextSource, dialect: CsvDialect): RoundsReadResult {
  const rows = isCsvPath(source.file) ? csvRoundRows(source.text, delimiterFor(dialect, source.file), source.file) : jsonlRoundRows(source.text, source.file)
  return buildTasks(rows, source.file)
}

/** Reads a debate-rounds file from disk; `name` is the name its errors use and its form is read from. */
export async function readRoundsFile(path: string, dialect: CsvDialect, name = path): Promise<RoundsReadResult> {
  return readRoundsText({ text: await readFile(path, 'utf8'), file: name }, dialect)
}

function buildTasks(read: RoundRows, file: string): RoundsReadResult {
  const out: RoundsReadResult = { traces: [], raws: [], errors: read.errors, lines: [], fatal: read.fatal }
  if (read.fatal) return out
  // Tasks in order of their first row; each task's rows in line order (the rows come in line order).
  const byTask = new Map<string, RoundRow[]>()
  const bad = read.badTasks
  // (task, round, seat) → the line of its row: a Set, not a scan, since one task may have many rows.
  const slots = new Map<string, number>()
  for (const row of read.rows) {
    let rows = byTask.get(row.task)
    if (rows === undefined) byTask.set(row.task, (rows = []))
    const slot = JSON.stringify([row.task, row.round, row.seat])
    const earlier = slots.get(slot)
    if (earlier !== undefined) {
      out.errors.push({ file, line: row.line, task: row.task, move: moveId(row), rule: 'duplicate-row', message: `round ${row.round} of seat ${row.seat} already has a row, on line ${earlier}` })
      bad.add(row.task)
      continue
    }
    slots.set(slot, row.line)
    rows.push(row)
  }
  for (const [task, rows] of byTask) {
    if (bad.has(task)) continue
    const built = buildTask(task, rows, file)
    out.errors.push(...built.errors)
    if (built.raw === null || built.trace === null) continue
    out.traces.push(built.trace)
    out.raws.push(built.raw)
    out.lines.push(rows[0].line)
  }
  out.errors.sort((a, b) => a.line - b.line)
  return out
}

const moveId = (row: { round: number; seat: string }): string => `r${row.round}-${row.seat}`

/** One task's rows (in line order, no two for one round and seat) → its trace line, validated. */
function buildTask(task: string, rows: RoundRow[], file: string): { trace: Trace | null; raw: Record<string, unknown> | null; errors: ReadError[] } {
  const first = rows[0]
  const errs = new LineErrors(file, first.line)
  errs.task = task
  checkConsistent(rows, errs)
  if (!errs.empty) return { trace: null, raw: null, errors: errs.list }
  const ordered = [...rows].sort((a, b) => a.round - b.round || a.line - b.line)
  const candidates = candidatesOf(first, ordered)
  if (candidates.length === 0) {
    errs.add('no-candidates', 'the task has no candidates column, no answer and no gold, so it has no candidate')
    return { trace: null, raw: null, errors: errs.list }
  }

  const raw: Record<string, unknown> = { format: TRACE_FORMAT, task }
  if (nonEmpty(first.question)) raw.question = first.question
  raw.candidates = candidates
  if (first.gold !== undefined) raw.gold = first.gold === '' ? null : first.gold
  if (nonEmpty(first.group)) raw.group = first.group
  if (rows.some((r) => r.model !== undefined)) raw.seats = seatsOf(ordered)
  raw.moves = movesOf(ordered)

  const trace = validateTraceObject(raw, errs)
  if (trace !== null && errs.empty)
    checkTaskSize(trace, rows.reduce((n, r) => n + r.bytes, 0), 'rows', errs)
  // The validator names the task's first line; a move's fault belongs to its own row.
  const lineOf = new Map(ordered.map((r) => [moveId(r), r.line]))
  const errors = errs.list.map((e) => (e.move === null ? e : { ...e, line: lineOf.get(e.move) ?? e.line }))
  return errors.length === 0 && trace !== null ? { trace, raw, errors } : { trace: null, raw: null, errors }
}

const nonEmpty = (v: string | undefined): v is string => v !== undefined && v !== ''

/** `gold`, `question`, `group`, `candidates` agree on every row, and each seat's `model` on its rows. */
function checkConsistent(rows: RoundRow[], errs: LineErrors): void {
  const first = rows[0]
  const fields = ['gold', 'question', 'group', 'candidates'] as const
  for (const f of fields) {
    const want = cellKey(first[f])
    const other = rows.find((r) => cellKey(r[f]) !== want)
    if (other !== undefined) errs.add('inconsistent-task', `"${f}" is ${show(first[f])} on line ${first.line} but ${show(other[f])} on line ${other.line}`)
  }
  const models = new Map<string, RoundRow>()
  for (const r of rows) {
    const seen = models.get(r.seat)
    if (seen === undefined) models.set(r.seat, r)
    else if ((seen.model ?? '') !== (r.model ?? '')) {
      errs.add('inconsistent-task', `seat ${r.seat}'s "model" is ${show(seen.model)} on line ${seen.line} but ${show(r.model)} on line ${r.line}`)
      models.set(r.seat, r) // one error per change, not one per later row
    }
  }
}

/** A task-level cell compared across rows: not given and empty are the same. */
function cellKey(v: string | string[] | undefined): string {
  if (v === undefined) return ''
  return typeof v === 'string' ? v : JSON.stringify(v)
}

function show(v: string | string[] | undefined): string {
  const s = v === undefined || v === '' ? 'empty' : JSON.stringify(v)
  return s.length > 80 ? `${s.slice(0, 80)}…` : s
}

/**
 * The `candidates` column split on `|` when the task gives it; else the distinct non-empty answers
 * in (round, line) order, then gold if absent, then `other` while fewer than two.
 */
function candidatesOf(first: RoundRow, ordered: RoundRow[]): string[] {
  const given = first.candidates
  if (Array.isArray(given)) return given
  if (given !== undefined && given !== '') return given.split('|')
  const list: string[] = []
  const seen = new Set<string>()
  const add = (c: string): void => {
    if (c === '' || seen.has(c)) return
    seen.add(c)
    list.push(c)
  }
  for (const r of ordered) add(r.answer)
  if (list.length === 0 && !nonEmpty(first.gold)) return list
  add(first.gold ?? '')
  if (list.length < 2) add('other')
  return list
}

function seatsOf(ordered: RoundRow[]): { id: string; model?: string }[] {
  const seats = new Map<string, { id: string; model?: string }>()
  for (const r of ordered) if (!seats.has(r.seat)) seats.set(r.seat, nonEmpty(r.model) ? { id: r.seat, model: r.model } : { id: r.seat })
  return [...seats.values()]
}

/** Moves `r<round>-<seat>`: no answer → abstain; the seat's latest answer again → vote; else propose. */
function movesOf(ordered: RoundRow[]): Record<string, unknown>[] {
  const latest = new Map<string, string>()
  return ordered.map((r) => {
    let force: Force = 'abstain'
    if (r.answer !== '') {
      force = latest.get(r.seat) === r.answer ? 'vote' : 'propose'
      latest.set(r.seat, r.answer)
    }
    const move: Record<string, unknown> = { id: moveId(r), round: r.round, seat: r.seat, force }
    if (force !== 'abstain') move.answer = r.answer
    if (r.confidence !== undefined) move.confidence = r.confidence satisfies JsonValue
    if (r.text !== undefined) move.text = r.text
    return move
  })
}
