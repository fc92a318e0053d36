import { readFile } from 'node:fs/promises'
import { TRACE_FORMAT, type Move, type Trace } from '../../shared/trace'
import { delimiterFor, type CsvDialect } from './csv-dialect'
import { parseGold } from './csv-gold'
import { DELIMITERS, parseRecords, type Delimiter } from './csv-records'
import { checkRow } from './csv-row'
import { LineErrors } from './json-fields'
import { formatCount, MAX_CANDIDATES, MAX_MOVES_PER_TASK } from './limits'
import type { ReadError } from './read-error'
import { checkTaskSize, rowBytes } from './task-size'
import type { TraceReadResult } from './trace-reader'

export interface CsvReadResult extends TraceReadResult {
  /**
   * Gold rows whose task has no answer in the file. They are skipped, not errors: real gold files
   * cover more tasks than their label files (gal-adultcontent: 1,517 gold tasks, 333 labeled).
   */
  goldIgnored: number
}

export interface TextSource {
  text: string
  /** The name used in errors. */
  file: string
}

/**
 * Label-aggregation CSV → traces (docs/formats.md): each valid row is a round-0 `propose` by seat
 * `worker` of `label`, with move id `r<line>` (its physical line: unique and stable). Tasks come in
 * order of first appearance; candidates are the labels of the whole file in order of first appearance,
 * the same list for every task so a label keeps its identity across tasks. Exact duplicate rows are
 * kept, each one propose. Gold labels come from the optional gold source. A file of more than
 * MAX_CANDIDATES distinct labels is refused whole (`too-many-labels`), with no tasks; a task whose
 * rows are too few for the file's labels is refused (`task-too-large`, on its first row's line).
 */
export function readLabelCsvText(answers: TextSource, dialect: CsvDialect, gold?: TextSource): CsvReadResult {
  const delimiter = delimiterFor(dialect, answers.file)
  const { records, errors } = parseRecords(answers.text, delimiter, answers.file)
  const form = dialect.header && records.length > 0 ? headerFault(records[0].fields, delimiter) : null
  if (form !== null) {
    // Every row would break the same column rule: one error that says what the file is instead.
    errors.push({ file: answers.file, line: records[0].line, task: null, move: null, rule: 'wrong-form', message: form })
    return { traces: [], raws: [], errors, goldIgnored: 0 }
  }
  const at = (c: 'task' | 'worker' | 'label'): number => dialect.columns.indexOf(c)
  const byTask = new Map<string, Move[]>()
  /** Each task's first line and the bytes of its rows (its input, for `task-too-large`). */
  const input = new Map<string, { line: number; bytes: number }>()
  const labels: string[] = []
  const labelSet = new Set<string>()
  let firstRow: number | null = null
  let tooMany: { line: number; label: string } | null = null

  for (const rec of dialect.header ? records.slice(1) : records) {
    const id = `r${rec.line}`
    if (!checkRow(rec, dialect.columns, answers.file, errors, id)) continue
    const [task, seat, label] = [rec.fields[at('task')], rec.fields[at('worker')], rec.fields[at('label')]]
    firstRow ??= rec.line
    if (!labelSet.has(label)) {
      labelSet.add(label)
      labels.push(label)
      if (labels.length === MAX_CANDIDATES + 1) tooMany = { line: rec.line, label }
    }
    let moves = byTask.get(task)
    if (moves === undefined) {
      byTask.set(task, (moves = []))
      input.set(task, { line: rec.line, bytes: 0 })
    }
    moves.push({ id, round: 0, seat, force: 'propose', answer: label })
    ;(input.get(task) as { bytes: number }).bytes += rowBytes(rec.fields)
  }
  if (firstRow !== null && labels.length < 2)
    errors.push({ file: answers.file, line: firstRow, task: null, move: null, rule: 'too-few-candidates', message: `the file uses ${labels.length} distinct label; a task needs at least 2 candidates` })
  // Every label is a candidate of every task: past the limit the file is refused whole, and its
  // tasks are not built (tasks × labels candidates is what the limit keeps from growing).
  if (tooMany !== null) {
    const message = `the file uses ${formatCount(labels.length)} distinct labels; at most ${MAX_CANDIDATES} are allowed, since every label is a candidate of every task (label ${JSON.stringify(tooMany.label.length > 40 ? `${tooMany.label.slice(0, 40)}…` : tooMany.label)}, the ${MAX_CANDIDATES + 1}th, first appears on this line)`
    errors.push({ file: answers.file, line: tooMany.line, task: null, move: null, rule: 'too-many-labels', message })
    byTask.clear()
  }

  const golds = new Map<string, string>()
  let goldIgnored = 0
  if (gold !== undefined) {
    const parsed = parseGold(gold.text, gold.file, dialect, delimiterFor(dialect, gold.file))
    errors.push(...parsed.errors)
    for (const [task, entry] of parsed.gold) {
      if (!byTask.has(task)) goldIgnored++
      else if (!labelSet.has(entry.label))
        errors.push({ file: gold.file, line: entry.line, task, move: null, rule: 'gold-not-candidate', message: `gold "${entry.label}" is no label of ${answers.file}` })
      else golds.set(task, entry.label)
    }
  }

  const traces: Trace[] = []
  const raws: object[] = []
  for (const [task, moves] of byTask) {
    const trace: Trace = { task, candidates: [...labels], gold: golds.get(task) ?? null, moves }
    const at = input.get(task) as { line: number; bytes: number }
    const errs = new LineErrors(answers.file, at.line)
    errs.task = task
    if (moves.length > MAX_MOVES_PER_TASK) errs.add('too-many-moves', `the task has ${formatCount(moves.length)} rows; at most ${formatCount(MAX_MOVES_PER_TASK)} are allowed`)
    else checkTaskSize(trace, at.bytes, 'rows', errs)
    if (!errs.empty) {
      errors.push(...errs.list)
      continue
    }
    traces.push(trace)
    raws.push({ format: TRACE_FORMAT, ...trace })
  }
  return { traces, raws, errors: errors.sort(byFileThenLine(answers.file)), goldIgnored }
}

/**
 * Why a header of other than three cells is no label-aggregation header, and what the file looks
 * like instead: another delimiter's file, or debate rounds without one of its columns. Null for a
 * three-cell header (its names are not read: `columns` says which is which).
 */
function headerFault(cells: readonly string[], delimiter: Delimiter): string | null {
  if (cells.length === 3) return null
  const shown = cells.length > 8 ? `${cells.slice(0, 8).join(', ')}, …` : cells.join(', ')
  const what = `the header has ${cells.length} ${cells.length === 1 ? 'column' : 'columns'} (${shown}); a label-aggregation CSV has 3: task, worker and label`
  const other = cells.length === 1 ? DELIMITERS.find((d) => d !== delimiter && d !== 'space' && cells[0].includes(DELIMITER_CHARS[d])) : undefined
  if (other !== undefined) return `${what}. It looks ${other}-separated: choose the ${other} delimiter (--delimiter ${other})`
  const names = new Set(cells.map((c) => c.trim().toLowerCase()))
  const rounds = ['task', 'round', 'seat', 'answer'].filter((c) => !names.has(c))
  if (rounds.length > 0 && (names.has('seat') || names.has('answer') || names.has('round')))
    return `${what}. It looks like debate rounds, whose header must name task, round, seat and answer; it has no ${rounds.map((c) => `"${c}"`).join(', ')} column`
  return what
}

const DELIMITER_CHARS: Record<Delimiter, string> = { comma: ',', semicolon: ';', tab: '\t', space: ' ' }

/** Reads the answers file and the dialect's gold file from disk. */
export async function readLabelCsvFile(path: string, dialect: CsvDialect): Promise<CsvReadResult> {
  const text = await readFile(path, 'utf8')
  const gold = dialect.gold === undefined ? undefined : { text: await readFile(dialect.gold, 'utf8'), file: dialect.gold }
  return readLabelCsvText({ text, file: path }, dialect, gold)
}

/** Answers-file errors first, then gold-file errors, each by line (stable). */
function byFileThenLine(answersFile: string): (a: ReadError, b: ReadError) => number {
  return (a, b) => Number(a.file !== answersFile) - Number(b.file !== answersFile) || a.line - b.line
}
