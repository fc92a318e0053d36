import type { Delimiter } from './csv-records'
import { DELIMITERS } from './csv-records'

export type Column = 'task' | 'worker' | 'label'
export const COLUMNS: readonly Column[] = ['task', 'worker', 'label']

/**
 * How a label-aggregation file is written (docs/formats.md): the order of its three columns, the
 * delimiter, whether a header line comes first, and an optional gold file (same flags, two columns
 * task,label in the relative order `columns` gives them). The header line is skipped, never
 * interpreted: the real datasets name their columns `question,worker,answer` or not at all, so only
 * `columns` says which is which.
 */
export interface CsvDialect {
  columns: readonly Column[]
  /** Absent: tab for a `.tsv` file, comma otherwise. */
  delimiter?: Delimiter
  header: boolean
  /** Path of the gold file. */
  gold?: string
}

export const DEFAULT_DIALECT: CsvDialect = { columns: COLUMNS, header: true }

/** `task,worker,label` in any order, each name once; throws a RangeError naming the problem. */
export function parseColumns(spec: string): Column[] {
  const names = spec.split(',').map((s) => s.trim())
  const ok = names.length === 3 && COLUMNS.every((c) => names.includes(c))
  if (!ok) throw new RangeError(`--columns must name task, worker and label once each, in file order; got "${spec}"`)
  return names as Column[]
}

export function parseDelimiter(spec: string): Delimiter {
  if (!(DELIMITERS as readonly string[]).includes(spec))
    throw new RangeError(`--delimiter must be one of ${DELIMITERS.join(', ')}; got "${spec}"`)
  return spec as Delimiter
}

export function delimiterFor(dialect: CsvDialect, path: string): Delimiter {
  return dialect.delimiter ?? (/\.tsv$/i.test(path) ? 'tab' : 'comma')
}

/** Whether a path is read as label-aggregation CSV rather than trace JSONL (docs/formats.md). */
export function isCsvPath(path: string): boolean {
  return /\.(csv|tsv|txt)$/i.test(path)
}
