/**
 * Pass 1 of a large trace import runs on two threads, each validating one half of the file
 * (io/trace-range.ts). `mergeTraceRanges` turns the halves' reports, in file order, into what one
 * pass over the whole file finds: the problems (lines shifted to the file's numbering), the valid
 * tasks and the seat declarations. The rules that span lines are settled here: a task id whose
 * first line in a later half was already seen in an earlier half is a `duplicate-task` on that line
 * (appended after the line's own errors, as the single pass does); seat models are checked in file
 * order, after every line's own errors. The property test in the fuzz suite holds the split and the whole-file results equal.
 */
import { duplicateTaskMessage, type TraceError, type TraceRangeReport } from '../../io'
import type { Problems } from './problems'
import type { Candidate, SeatModels } from './writer'

export function mergeTraceRanges(file: string, reports: readonly TraceRangeReport[], problems: Problems, tasks: Map<string, Candidate>, seats: SeatModels): void {
  const earlier = new Set<string>()
  const declared: { line: number; task: string; seats: { id: string; model: string }[] }[] = []
  let offset = 0
  for (const r of reports) {
    // Lines whose id an earlier half already holds: their duplicate-task errors, by line.
    const repeats = new Map<number, string>()
    if (earlier.size > 0) for (let i = 0; i < r.ids.length; i++) if (earlier.has(r.ids[i])) repeats.set(r.idLines[i], r.ids[i])
    addErrors(problems, r, offset, repeats, file)
    for (let i = 0; i < r.ids.length; i++) {
      const line = r.idLines[i]
      if (r.idShas[i] !== '' && !repeats.has(line)) tasks.set(r.ids[i], { task: r.ids[i], line: line + offset, sha: r.idShas[i] })
    }
    for (const d of r.seatDecls) if (!repeats.has(d.line)) declared.push({ ...d, line: d.line + offset })
    for (const id of r.ids) earlier.add(id)
    offset += r.lines
  }
  // After every line's own errors, however the file was cut: one order for one file.
  for (const d of declared) seats.check(file, d.line, d.task, d.seats, problems)
}

/** The half's errors and its lines' cross-half duplicates, in line order. */
function addErrors(problems: Problems, r: TraceRangeReport, offset: number, repeats: Map<number, string>, file: string): void {
  const dupLines = [...repeats.keys()].sort((a, b) => a - b)
  const shifted = (e: TraceError): TraceError => ({ ...e, line: e.line + offset })
  const dup = (line: number): TraceError => {
    const task = repeats.get(line) as string
    return { file, line: line + offset, task, move: null, rule: 'duplicate-task', message: duplicateTaskMessage(task) }
  }
  let d = 0
  for (const e of r.errors) {
    while (d < dupLines.length && dupLines[d] < e.line) problems.add(dup(dupLines[d++]))
    problems.add(shifted(e))
  }
  // Errors past the listed ones are counted with their lines, not listed (the list is capped anyway).
  const listedLines = new Set(r.errors.map((e) => e.line))
  const unlisted = r.errorCount - r.errors.length
  if (unlisted > 0) problems.addUnlisted(file, unlisted, r.badLines.filter((l) => !listedLines.has(l)).map((l) => l + offset))
  while (d < dupLines.length) problems.add(dup(dupLines[d++]))
}
