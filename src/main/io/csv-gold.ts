import type { CsvDialect } from './csv-dialect'
import type { Delimiter } from './csv-records'
import { parseRecords } from './csv-records'
import type { ReadError } from './read-error'
import { checkRow } from './csv-row'

export interface GoldEntry {
  label: string
  line: number
}

/**
 * Parses a gold file: two columns, task and label, in the order `columns` puts them. A task may be
 * repeated with the same label (dog_truth.txt repeats each of its tasks 10 times); a different label
 * is a `conflicting-gold` error at the later line.
 */
export function parseGold(text: string, file: string, dialect: CsvDialect, delimiter: Delimiter): { gold: Map<string, GoldEntry>; errors: ReadError[] } {
  const order = dialect.columns.filter((c) => c !== 'worker')
  const taskAt = order.indexOf('task')
  const labelAt = order.indexOf('label')
  const { records, errors } = parseRecords(text, delimiter, file)
  const gold = new Map<string, GoldEntry>()
  for (const rec of dialect.header ? records.slice(1) : records) {
    if (!checkRow(rec, order, file, errors, null)) continue
    const task = rec.fields[taskAt]
    const label = rec.fields[labelAt]
    const prior = gold.get(task)
    if (prior === undefined) gold.set(task, { label, line: rec.line })
    else if (prior.label !== label)
      errors.push({ file, line: rec.line, task, move: null, rule: 'conflicting-gold', message: `gold "${label}" contradicts "${prior.label}" on line ${prior.line}` })
  }
  return { gold, errors }
}
