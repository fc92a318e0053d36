/**
 * The one error shape of every reader (docs/formats.md: "every error names the line number, the task
 * id, the move id where there is one, and the rule broken"). Rule ids are stable kebab-case so
 * tests, scripts and the console can match on them; messages are for humans and may change.
 */

/** Rules of the trace JSONL reader (`arbiter.trace/1`; docs/engine.md §1). */
export const TRACE_RULES = [
  'malformed-json',
  'not-an-object',
  'missing-field',
  'wrong-type',
  'bad-format',
  'too-few-candidates',
  'duplicate-candidate',
  'gold-not-candidate',
  'duplicate-task',
  'duplicate-move',
  'bad-round',
  'unknown-force',
  'missing-answer',
  'answer-not-candidate',
  'missing-target',
  'unknown-target',
  'target-not-earlier',
  'target-no-endorsement',
  'round-decreasing',
  'too-many-seats',
  'too-many-rounds',
  'tallies-too-large',
  'move-text-too-long',
  'question-too-long',
  'too-many-candidates',
  'too-many-moves',
  'task-too-large'
] as const

/** Rules added by the label-aggregation CSV reader (answers file and gold file). */
export const CSV_RULES = [
  'wrong-form',
  'missing-column',
  'extra-column',
  'empty-field',
  'bad-quote',
  'too-few-candidates',
  'gold-not-candidate',
  'conflicting-gold',
  'too-many-labels',
  'too-many-moves',
  'task-too-large'
] as const

/**
 * Rules added by the debate-rounds reader (docs/formats.md "Debate rounds"); its rows also break the
 * CSV reader's column rules, and the tasks it builds the trace rules.
 */
export const ROUNDS_RULES = ['duplicate-row', 'inconsistent-task', 'no-candidates'] as const

/** Rules of the label JSONL reader (`arbiter.labels/1`). */
export const LABEL_RULES = [
  'malformed-json',
  'not-an-object',
  'missing-field',
  'wrong-type',
  'bad-format',
  'bad-source',
  'bad-time'
] as const

export type TraceRule = (typeof TRACE_RULES)[number]
export type CsvRule = (typeof CSV_RULES)[number]
export type LabelRule = (typeof LABEL_RULES)[number]
export type RoundsRule = (typeof ROUNDS_RULES)[number]
export type RuleId = TraceRule | CsvRule | RoundsRule | LabelRule

/** Every rule id any reader can report, without repeats, in declaration order. */
export const RULE_IDS: readonly RuleId[] = [...new Set<RuleId>([...TRACE_RULES, ...CSV_RULES, ...ROUNDS_RULES, ...LABEL_RULES])]

export interface ReadError {
  file: string
  /** Physical 1-based line number (blank lines counted). */
  line: number
  task: string | null
  move: string | null
  rule: RuleId
  message: string
}

/** The trace reader's errors; the same shape as every other reader's. */
export type TraceError = ReadError

/** `file:line: task T move M: rule — message`, the parts without a value left out. */
export function formatReadError(e: ReadError): string {
  const where = [e.task !== null ? `task ${e.task}` : '', e.move !== null ? `move ${e.move}` : '']
    .filter((s) => s !== '')
    .join(' ')
  return `${e.file}:${e.line}: ${where === '' ? '' : `${where}: `}${e.rule} — ${e.message}`
}
