import { LABELS_FORMAT } from '../../shared/trace'
import { idField, kindOf, isRecord, stringField, type LineErrors } from './json-fields'
import { fileLines, splitLines } from './lines'
import { parseJsonLine } from './json-line'
import type { ReadError } from './read-error'
import { LABEL_SOURCES, type LabelSource } from '../../shared/vocabularies'

export { LABEL_SOURCES, type LabelSource }

/** One human label (docs/formats.md `arbiter.labels/1`; docs/engine.md §10 for `source`). */
export interface Label {
  task: string
  label: string
  source: LabelSource
  reviewer: string
  /** ISO 8601 date-time with a zone, as written. */
  at: string
  note?: string
}

export interface LabelReadResult {
  labels: Label[]
  /** The parsed object of each valid line (same index), unknown fields included. */
  raws: object[]
  errors: ReadError[]
}

// A zone is required: label time orders drift windows (docs/engine.md §9), and a zoneless time would be
// read in whatever zone the machine is in.
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/

/**
 * Line-by-line core of the label JSONL reader, as TraceLineReader. Whether a label's task exists and
 * its label is a candidate is checked where the traces are (the import), not here. Repeated labels
 * of a task are kept: a relabel is history, and the store decides which one counts.
 */
export class LabelLineReader {
  private lineNo = 0
  private readonly out: LabelReadResult = { labels: [], raws: [], errors: [] }

  constructor(private readonly file: string) {}

  push(line: string): void {
    this.lineNo++
    const parsed = parseJsonLine(this.file, this.lineNo, line, this.out.errors)
    if (parsed === null || !parsed.parsed) return
    const { value, errs } = parsed
    const label = validateLabel(value, errs)
    if (label !== null) {
      this.out.labels.push(label)
      this.out.raws.push(value as object)
    }
    this.out.errors.push(...errs.list)
  }

  result(): LabelReadResult {
    return this.out
  }
}

/**
 * A time with a zone that names a real instant whose UTC form still has a 4-digit year: the store
 * keeps times as UTC ISO strings, and `9999-12-31T23:00:00-05:00` is year 10000 there.
 */
function storableTime(at: string): boolean {
  if (!ISO_TIME.test(at)) return false
  const ms = Date.parse(at)
  if (Number.isNaN(ms)) return false
  const year = new Date(ms).getUTCFullYear()
  return year >= 0 && year <= 9999
}

function validateLabel(value: unknown, errs: LineErrors): Label | null {
  if (!isRecord(value)) {
    errs.add('not-an-object', `a label line must be a JSON object, got ${kindOf(value)}`)
    return null
  }
  const task = stringField(value, 'task', true, errs, 'the label')
  if (task !== undefined) errs.task = task
  if (value.format !== undefined && value.format !== LABELS_FORMAT)
    errs.add('bad-format', `"format" is ${JSON.stringify(value.format)}; expected "${LABELS_FORMAT}"`)
  const label = stringField(value, 'label', true, errs, 'the label')
  const source = stringField(value, 'source', true, errs, 'the label')
  if (source !== undefined && !(LABEL_SOURCES as readonly string[]).includes(source))
    errs.add('bad-source', `"source" is "${source}"; expected random or escalation`)
  const reviewer = idField(value, 'reviewer', true, errs, 'the label')
  const at = stringField(value, 'at', true, errs, 'the label')
  if (at !== undefined && !storableTime(at))
    errs.add('bad-time', `"at" is "${at}"; expected an ISO 8601 date-time with a zone, e.g. 2026-11-30T12:00:00Z`)
  const note = stringField(value, 'note', false, errs, 'the label')
  if (!errs.empty || task === undefined || label === undefined || reviewer === undefined || at === undefined) return null
  const out: Label = { task, label, source: source as LabelSource, reviewer, at }
  if (note !== undefined) out.note = note
  return out
}

export function readLabelsText(text: string, file: string): LabelReadResult {
  const reader = new LabelLineReader(file)
  for (const line of splitLines(text)) reader.push(line)
  return reader.result()
}

export async function readLabelsFile(path: string): Promise<LabelReadResult> {
  const reader = new LabelLineReader(path)
  for await (const line of fileLines(path)) reader.push(line)
  return reader.result()
}
