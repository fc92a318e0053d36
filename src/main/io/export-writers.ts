/**
 * Export writers (docs/formats.md): decisions (`arbiter.decisions/1`, JSONL or CSV) and labels
 * (`arbiter.labels/1`, JSONL or CSV) and flags (`arbiter.flags/1`, JSONL or CSV). Rows are formatted one at a time so an export of any size
 * streams. CSV follows RFC 4180 (a cell with a comma, quote or line break is quoted, quotes
 * doubled); object and array cells are JSON-encoded. Text a spreadsheet would run as a formula gets
 * a leading `'` (task ids, candidates and notes come from outside); JSONL keeps every value verbatim.
 */

/** One decisions row, fields in docs/formats.md's order. */
export interface DecisionExportRow {
  task: string
  decision: 'act' | 'defer' | 'human' | null
  spotCheck: boolean
  answer: string | null
  method: string | null
  posterior: Record<string, number> | null
  stopRound: number | null
  gap: number | null
  bound: (number | null)[] | null
  label: string | null
  labelSource: 'random' | 'escalation' | null
  reviewer: string | null
  decidedAt: string | null
  fit: string | null
}

export const DECISION_FIELDS: readonly (keyof DecisionExportRow)[] = [
  'task', 'decision', 'spotCheck', 'answer', 'method', 'posterior', 'stopRound', 'gap', 'bound', 'label', 'labelSource', 'reviewer', 'decidedAt', 'fit'
]

/** One label, as the label reader reads it back (a missing note is left out, not null). */
export interface LabelExportRow {
  task: string
  label: string
  source: 'random' | 'escalation'
  reviewer: string
  at: string
  note: string | null
}

export const LABEL_FIELDS: readonly (keyof LabelExportRow)[] = ['task', 'label', 'source', 'reviewer', 'at', 'note']

/** One flag (`arbiter.flags/1`): who could not decide the task, why, and when. */
export interface FlagExportRow {
  task: string
  reviewer: string
  reason: string
  at: string
}

export const FLAG_FIELDS: readonly (keyof FlagExportRow)[] = ['task', 'reviewer', 'reason', 'at']

/** A plain decimal number, which a spreadsheet reads as that number, not a formula. */
const NUMBER_TEXT = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/

/**
 * Whether a spreadsheet would read text as a formula (CSV injection, OWASP): it starts with `=`,
 * `@`, a tab or a carriage return, or with `+` / `-` and is not a plain number.
 */
export function looksLikeFormula(s: string): boolean {
  const c = s.charAt(0)
  if (c === '=' || c === '@' || c === '\t' || c === '\r') return true
  return (c === '+' || c === '-') && !NUMBER_TEXT.test(s)
}

/** One RFC 4180 cell, the value as it is (a CSV that Arbiter or a test reads back). */
export function csvCell(v: unknown): string {
  if (v === null || v === undefined) return ''
  const s = typeof v === 'object' ? JSON.stringify(v) : String(v)
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s
}

export function csvLine(values: readonly unknown[]): string {
  return `${values.map(csvCell).join(',')}\n`
}

/** One cell of an export, which people open in spreadsheets: text that would run as a formula gets a leading `'`. */
export function exportCell(v: unknown): string {
  return csvCell(typeof v === 'string' && looksLikeFormula(v) ? `'${v}` : v)
}

function exportLine(values: readonly unknown[]): string {
  return `${values.map(exportCell).join(',')}\n`
}

export type ExportFormat = 'jsonl' | 'csv'

/** Formats rows of one kind: `header()` once (empty for JSONL), then `row()` per row. */
export class RowWriter<R extends object> {
  constructor(
    private readonly fields: readonly (keyof R)[],
    private readonly format: ExportFormat,
    private readonly omitNull: readonly (keyof R)[] = []
  ) {}

  header(): string {
    return this.format === 'csv' ? csvLine(this.fields as readonly string[]) : ''
  }

  row(r: R): string {
    if (this.format === 'csv') return exportLine(this.fields.map((f) => r[f]))
    const out: Record<string, unknown> = {}
    for (const f of this.fields) if (!(r[f] === null && this.omitNull.includes(f))) out[f as string] = r[f]
    return `${JSON.stringify(out)}\n`
  }
}

export const decisionsWriter = (format: ExportFormat) => new RowWriter<DecisionExportRow>(DECISION_FIELDS, format)
export const labelsWriter = (format: ExportFormat) => new RowWriter<LabelExportRow>(LABEL_FIELDS, format, ['note'])
export const flagsWriter = (format: ExportFormat) => new RowWriter<FlagExportRow>(FLAG_FIELDS, format)
