import type { ImportProblem } from '../../../shared/api'
import type { ReadError } from '../../io'

/**
 * Rules an import adds to the readers' (io/read-error.ts): they need the database, so they are
 * checked after the file itself is valid and before anything is written.
 */
export const IMPORT_RULES = [
  'changed-task',
  'task-being-imported',
  'seat-model-clash',
  'unknown-task',
  'label-not-candidate',
  // Over a per-reviewer login: a label naming another reviewer, or claiming a blind draw.
  'not-your-label',
  'random-needs-draw',
  'unreadable-file',
  // Faults of the whole file found before a reader runs (file-fault.ts).
  'empty-file',
  'not-jsonl'
] as const

/** How many problems a summary carries; the count is always exact. */
export const MAX_REPORTED = 1000

export class Problems {
  readonly list: ImportProblem[] = []
  count = 0
  /** Physical lines with at least one problem, by file: skipped under --skip-invalid. */
  private readonly byFile = new Map<string, Set<number>>()

  add(p: ImportProblem | ReadError): void {
    this.count++
    let lines = this.byFile.get(p.file)
    if (lines === undefined) this.byFile.set(p.file, (lines = new Set()))
    lines.add(p.line)
    if (this.list.length < MAX_REPORTED) this.list.push({ file: p.file, line: p.line, task: p.task, move: p.move, rule: p.rule, message: p.message })
  }

  /** Problems counted (with their lines) but not listed: past the listing cap of a report merged in. */
  addUnlisted(file: string, count: number, lines: readonly number[]): void {
    this.count += count
    let set = this.byFile.get(file)
    if (set === undefined) this.byFile.set(file, (set = new Set()))
    for (const l of lines) set.add(l)
  }

  /** Whether line `line` of `file` has a problem (a gold file's line 2 is not the answers file's). */
  onLine(file: string, line: number): boolean {
    return this.byFile.get(file)?.has(line) === true
  }

  get empty(): boolean {
    return this.count === 0
  }
}

/** `file:line: task T move M: rule — message`, as the readers format theirs. */
export function formatProblem(e: ImportProblem): string {
  const where = [e.task !== null ? `task ${e.task}` : '', e.move !== null ? `move ${e.move}` : ''].filter((s) => s !== '').join(' ')
  return `${e.file}:${e.line}: ${where === '' ? '' : `${where}: `}${e.rule} — ${e.message}`
}
