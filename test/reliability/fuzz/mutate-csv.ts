/**
 * Structural mutations of one delimited line: delete, duplicate, swap, empty-or-replace and quote
 * its fields. The line is split on the dialect's delimiter byte only (no quote handling): a
 * mutation that breaks a quoted field is itself a useful case.
 */
import { pick } from './bytes'
import { REPLACEMENTS } from './values'

export type CsvOp =
  | { kind: 'delete'; field: number }
  | { kind: 'duplicate'; field: number }
  | { kind: 'swap'; field: number; other: number }
  | { kind: 'retype'; field: number; value: number }
  | { kind: 'quote'; field: number }

/** Field replacements: the JSON replacements' text forms (empty, 513 characters, NUL, quotes, …). */
const TEXTS: readonly string[] = [...new Set(REPLACEMENTS.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).filter((t) => t.length < 2000)), '"', 'a"b', '""', '"x', 'x"', ',', '\t']

export function mutateCsvLine(line: Buffer, m: CsvOp, delimiter: string): Buffer {
  const text = line.toString('utf8')
  const cr = text.endsWith('\r')
  const fields = (cr ? text.slice(0, -1) : text).split(delimiter)
  const i = pick(m.field, fields.length)
  switch (m.kind) {
    case 'delete':
      fields.splice(i, 1)
      break
    case 'duplicate':
      fields.splice(i, 0, fields[i])
      break
    case 'swap': {
      const j = pick(m.other, fields.length)
      ;[fields[i], fields[j]] = [fields[j], fields[i]]
      break
    }
    case 'retype':
      fields[i] = TEXTS[pick(m.value, TEXTS.length)]
      break
    case 'quote':
      fields[i] = `"${fields[i].replace(/"/g, '""')}"`
      break
  }
  return Buffer.from(`${fields.join(delimiter)}${cr ? '\r' : ''}`, 'utf8')
}
