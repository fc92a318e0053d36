/**
 * The reader-level properties, for one decoded text: the readers never throw, every error is clear
 * (file, a physical line of that file, a known rule, a message), every non-blank line is either
 * accepted or has errors (never both, never neither), what is accepted satisfies invariants.ts,
 * and the streaming checker an import uses agrees line by line with the in-memory reader.
 */
import { isDeepStrictEqual } from 'node:util'
import { LabelLineReader, readLabelCsvText, RULE_IDS, TraceLineChecker, TraceLineReader, TraceRangeChecker, trustedTrace, type CsvDialect, type ReadError } from '../../../src/main/io'
import { splitLines } from '../../../src/main/io/lines'
import { IMPORT_RULES } from '../../../src/main/service/import'
import { Problems } from '../../../src/main/service/import/problems'
import { mergeTraceRanges } from '../../../src/main/service/import/trace-ranges'
import { SeatModels, type Candidate } from '../../../src/main/service/import/writer'
import { labelProblem, rawProblem, traceProblem } from './invariants'

export const KNOWN_RULES: ReadonlySet<string> = new Set<string>([...RULE_IDS, ...IMPORT_RULES])

export class PropertyFailure extends Error {}

export function check(ok: boolean, what: string): asserts ok {
  if (!ok) throw new PropertyFailure(what)
}

type Problem = Pick<ReadError, 'file' | 'line' | 'message'> & { rule: string }

/** `lines`: physical line count of each file the errors may name. */
export function checkClearErrors(errors: readonly Problem[], lines: ReadonlyMap<string, number>): void {
  for (const e of errors) {
    const n = lines.get(e.file)
    check(n !== undefined, `error names an unknown file ${e.file}`)
    check(Number.isInteger(e.line) && e.line >= 1 && e.line <= Math.max(n, 1), `error line ${e.line} outside 1..${n} (${e.rule})`)
    check(KNOWN_RULES.has(e.rule), `unknown rule ${e.rule}`)
    check(typeof e.message === 'string' && e.message.trim().length > 0, `empty message for ${e.rule}`)
  }
}

export type ReaderVerdict = { accepted: number; errors: number; key: string }

export function checkTraceText(text: string, file: string): ReaderVerdict {
  const lines = splitLines(text)
  const reader = new TraceLineReader(file)
  const checker = new TraceLineChecker(file)
  const out = reader.result()
  lines.forEach((line, i) => {
    const [t0, e0] = [out.traces.length, out.errors.length]
    reader.push(line)
    const streamed = checker.check(line)
    const took = out.traces.length - t0
    const errs = out.errors.slice(e0)
    if (line.trim() === '') check(took === 0 && errs.length === 0 && streamed.kind === 'blank', `blank line ${i + 1} not skipped`)
    else {
      check((took === 1) !== errs.length > 0, `line ${i + 1}: accepted ${took}, errors ${errs.length}`)
      check(streamed.kind === (took === 1 ? 'valid' : 'invalid'), `line ${i + 1}: streaming checker says ${streamed.kind}`)
      if (streamed.kind === 'invalid') check(JSON.stringify(streamed.errors) === JSON.stringify(errs), `line ${i + 1}: streaming errors differ`)
      // An import's second pass rebuilds accepted lines without the checks: it must get the same trace.
      if (streamed.kind === 'valid') check(isDeepStrictEqual(trustedTrace(streamed.raw), streamed.trace), `line ${i + 1}: trustedTrace differs from the validator's trace`)
      check(errs.every((e) => e.line === i + 1), `line ${i + 1}: an error names another line`)
    }
  })
  checkClearErrors(out.errors, new Map([[file, lines.length]]))
  checkSplitValidation(lines, file)
  check(new Set(out.traces.map((t) => t.task)).size === out.traces.length, 'two accepted traces share a task id')
  out.traces.forEach((t, i) => {
    const p = traceProblem(t) ?? rawProblem(out.raws[i])
    check(p === null, `accepted trace ${t.task}: ${p}`)
  })
  return { accepted: out.traces.length, errors: out.errors.length, key: JSON.stringify(out.traces) }
}

type Pass1 = { list: string; count: number; bad: number[]; tasks: string; seatsClashed: boolean }

function pass1(lines: readonly string[], file: string, cuts: number[]): Pass1 {
  const reports = [0, ...cuts].map((from, i) => {
    const r = new TraceRangeChecker(file, 1000)
    for (const line of lines.slice(from, i < cuts.length ? cuts[i] : lines.length)) r.push(line)
    return r.report
  })
  const problems = new Problems()
  const tasks = new Map<string, Candidate>()
  const seats = new SeatModels()
  mergeTraceRanges(file, reports, problems, tasks, seats)
  const bad = lines.map((_, i) => i + 1).filter((l) => problems.onLine(file, l))
  return { list: JSON.stringify(problems.list), count: problems.count, bad, tasks: JSON.stringify([...tasks.values()]), seatsClashed: seats.clashed }
}

/**
 * A large import validates its file's halves on two threads and merges the findings: for any cut
 * (one or two), the merge must find exactly what the single pass finds, errors in the same order.
 */
function checkSplitValidation(lines: readonly string[], file: string): void {
  const whole = pass1(lines, file, [])
  const n = lines.length
  for (const cuts of [[n >> 1], [1], [n - 1], [n / 3, (2 * n) / 3].map(Math.floor)]) {
    if (cuts.some((c) => c <= 0 || c >= n)) continue
    const split = pass1(lines, file, cuts)
    check(isDeepStrictEqual(split, whole), `pass 1 cut at lines ${cuts.join(', ')} differs from the whole-file pass`)
  }
}

export function checkLabelText(text: string, file: string): ReaderVerdict {
  const lines = splitLines(text)
  const reader = new LabelLineReader(file)
  const out = reader.result()
  lines.forEach((line, i) => {
    const [l0, e0] = [out.labels.length, out.errors.length]
    reader.push(line)
    const took = out.labels.length - l0
    const errs = out.errors.length - e0
    if (line.trim() === '') check(took === 0 && errs === 0, `blank line ${i + 1} not skipped`)
    else check((took === 1) !== errs > 0, `line ${i + 1}: accepted ${took}, errors ${errs}`)
  })
  checkClearErrors(out.errors, new Map([[file, lines.length]]))
  for (const l of out.labels) {
    const p = labelProblem(l)
    check(p === null, `accepted label of ${l.task}: ${p}`)
  }
  return { accepted: out.labels.length, errors: out.errors.length, key: JSON.stringify(out.labels) }
}

export function checkCsvText(answers: string, file: string, dialect: CsvDialect, gold: { text: string; file: string } | null): ReaderVerdict {
  const r = readLabelCsvText({ text: answers, file }, dialect, gold ?? undefined)
  const lines = new Map([[file, answers.split('\n').length]])
  if (gold !== null) lines.set(gold.file, gold.text.split('\n').length)
  checkClearErrors(r.errors, lines)
  const badRows = new Set(r.errors.filter((e) => e.file === file && e.rule !== 'too-few-candidates').map((e) => e.line))
  const moveIds = new Set<string>()
  const candidates = r.traces[0]?.candidates ?? []
  check(new Set(r.traces.map((t) => t.task)).size === r.traces.length, 'two tasks share an id')
  for (const t of r.traces) {
    check(JSON.stringify(t.candidates) === JSON.stringify(candidates), `task ${t.task}: candidates differ from the file's`)
    check(t.moves.length > 0, `task ${t.task} has no rows`)
    for (const m of t.moves) {
      check(!moveIds.has(m.id), `row id ${m.id} twice`)
      moveIds.add(m.id)
      check(!badRows.has(Number(m.id.slice(1))), `row ${m.id} is both a move and an error`)
    }
    // Too few labels is a file-level error: the tasks are still built, but never imported.
    const p = candidates.length < 2 ? null : traceProblem(t)
    check(p === null, `task ${t.task}: ${p}`)
  }
  if (r.traces.length > 0 && candidates.length < 2) check(r.errors.some((e) => e.rule === 'too-few-candidates'), 'fewer than 2 labels without too-few-candidates')
  // Benign edits renumber rows: compare what the rows say, not their ids.
  const key = JSON.stringify(r.traces.map((t) => [t.task, t.gold, t.candidates, t.moves.map((m) => [m.seat, m.answer])]))
  return { accepted: r.traces.length, errors: r.errors.length, key }
}
