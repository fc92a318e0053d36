import { contentSha256 } from './content-hash'
import type { TraceError } from './read-error'
import { TraceLineChecker } from './trace-stream'

/**
 * What validating one run of consecutive lines of a trace file finds, in a form that crosses a
 * thread boundary cheaply. A large import validates the two halves of its file on two threads;
 * merging the halves' reports (service/import/trace-ranges.ts) gives what one pass over the whole
 * file gives. Lines are numbered from 1 within the run; the merge shifts them. The only rule that
 * spans lines, duplicate-task, is settled by the merge from `ids` (each id's first line in the run).
 */
export interface TraceRangeReport {
  lines: number
  /** The first `listLimit` errors, in line order (the count and the lines are exact). */
  errors: TraceError[]
  errorCount: number
  /** Every line with an error, ascending. */
  badLines: number[]
  /**
   * Each task id's first line in the run (parallel arrays); `idShas[i]` is the line's content hash
   * when it is valid (pass 2 writes it as is: it reads the same bytes), '' when it is not.
   */
  ids: string[]
  idLines: number[]
  idShas: string[]
  /** SHA-256 of the run's bytes, so the thread that hashed the whole file can tell it read the same. */
  sha256: string
  /** Valid lines that declare seat models, in line order (the seat-model rule spans lines too). */
  seatDecls: { line: number; task: string; seats: { id: string; model: string }[] }[]
}

export class TraceRangeChecker {
  private readonly checker: TraceLineChecker
  readonly report: TraceRangeReport = { lines: 0, errors: [], errorCount: 0, badLines: [], ids: [], idLines: [], idShas: [], sha256: '', seatDecls: [] }

  constructor(
    file: string,
    private readonly listLimit: number
  ) {
    this.checker = new TraceLineChecker(file)
  }

  get line(): number {
    return this.checker.line
  }

  push(line: string): void {
    const r = this.checker.check(line)
    const report = this.report
    report.lines = this.checker.line
    if (r.kind === 'blank') return
    if (r.kind === 'valid') {
      report.ids.push(r.trace.task)
      report.idLines.push(report.lines)
      report.idShas.push(contentSha256(r.raw))
      const seats = (r.trace.seats ?? []).filter((s): s is { id: string; model: string } => s.model !== undefined)
      if (seats.length > 0) report.seatDecls.push({ line: report.lines, task: r.trace.task, seats })
      return
    }
    if (r.task !== null && !r.repeated) {
      report.ids.push(r.task)
      report.idLines.push(report.lines)
      report.idShas.push('')
    }
    report.badLines.push(report.lines)
    report.errorCount += r.errors.length
    for (const e of r.errors) if (report.errors.length < this.listLimit) report.errors.push(e)
  }
}
