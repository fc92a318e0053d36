import type { Trace } from '../../shared/trace'
import { LineErrors } from './json-fields'
import { parseLimited } from './json-line'
import { isBlank } from './lines'
import type { TraceError } from './read-error'
import { checkTaskSize } from './task-size'
import { duplicateTaskMessage, validateTraceObject } from './trace-object'

export type CheckedLine =
  | { kind: 'blank' }
  | { kind: 'valid'; trace: Trace; raw: Record<string, unknown> }
  /** `task`: the line's task id when it has a usable one; `repeated`: an earlier line has that id. */
  | { kind: 'invalid'; errors: TraceError[]; task: string | null; repeated: boolean }

/**
 * The trace reader's rules (`TraceLineReader`: the same per-line validator and the same
 * duplicate-task rule) without keeping what it reads: each line's verdict is returned at once, so
 * an import can validate a file of any size in constant memory (only the task ids are kept, for
 * the duplicate rule). Feed every physical line in order, blank ones too.
 */
export class TraceLineChecker {
  private lineNo = 0
  private readonly tasks = new Set<string>()

  constructor(private readonly file: string) {}

  get line(): number {
    return this.lineNo
  }

  check(line: string): CheckedLine {
    this.lineNo++
    if (isBlank(line)) return { kind: 'blank' }
    const errs = new LineErrors(this.file, this.lineNo)
    const value = parseLimited(line, errs)
    if (!errs.empty) return { kind: 'invalid', errors: errs.list, task: null, repeated: false }
    const trace = validateTraceObject(value, errs)
    if (trace !== null && errs.empty) checkTaskSize(trace, line, 'line', errs)
    const task = errs.task
    const repeated = task !== null && this.tasks.has(task)
    if (repeated) errs.add('duplicate-task', duplicateTaskMessage(task))
    else if (task !== null) this.tasks.add(task)
    if (trace !== null && errs.empty) return { kind: 'valid', trace, raw: value as Record<string, unknown> }
    return { kind: 'invalid', errors: errs.list, task, repeated }
  }
}
