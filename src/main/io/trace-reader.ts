import type { Trace } from '../../shared/trace'
import { fileLines, splitLines } from './lines'
import { parseJsonLine } from './json-line'
import type { TraceError } from './read-error'
import { checkTaskSize } from './task-size'
import { duplicateTaskMessage, validateTraceObject } from './trace-object'

export interface TraceReadResult {
  /** The valid traces, in file order. */
  traces: Trace[]
  /** The parsed JSON object of each valid trace (same index), unknown fields included, for round-trip. */
  raws: object[]
  /** Every error of the file; the caller decides (docs/formats.md: nothing is written unless it is empty or the user skips invalid lines). */
  errors: TraceError[]
}

/**
 * The line-by-line core of the trace JSONL reader: feed it every physical line in order (blank ones
 * too, so line numbers stay physical), then take `result()`. One instance per file; it remembers the
 * task ids already seen, so a second line with the same id is a `duplicate-task` error (the first
 * one stays valid).
 */
export class TraceLineReader {
  private lineNo = 0
  private readonly tasks = new Set<string>()
  private readonly out: TraceReadResult = { traces: [], raws: [], errors: [] }

  constructor(private readonly file: string) {}

  push(line: string): void {
    this.lineNo++
    const parsed = parseJsonLine(this.file, this.lineNo, line, this.out.errors)
    if (parsed === null || !parsed.parsed) return
    const { value, errs } = parsed
    const trace = validateTraceObject(value, errs)
    if (trace !== null && errs.empty) checkTaskSize(trace, line, 'line', errs)
    const task = errs.task
    if (task !== null) {
      if (this.tasks.has(task)) errs.add('duplicate-task', duplicateTaskMessage(task))
      this.tasks.add(task)
    }
    if (trace !== null && errs.empty) {
      this.out.traces.push(trace)
      this.out.raws.push(value as object)
    }
    this.out.errors.push(...errs.list)
  }

  result(): TraceReadResult {
    return this.out
  }
}

/** Reads trace JSONL held in memory; `file` is the name used in errors. */
export function readTraceText(text: string, file: string): TraceReadResult {
  const reader = new TraceLineReader(file)
  for (const line of splitLines(text)) reader.push(line)
  return reader.result()
}

/** Streams a trace JSONL file from disk, validating line by line. */
export async function readTraceFile(path: string): Promise<TraceReadResult> {
  const reader = new TraceLineReader(path)
  for await (const line of fileLines(path)) reader.push(line)
  return reader.result()
}
