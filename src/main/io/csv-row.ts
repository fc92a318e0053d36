import type { CsvRecord } from './csv-records'
import { idFault } from './json-fields'
import { MAX_ID_LENGTH } from './limits'
import type { ReadError } from './read-error'

/**
 * Checks one record has exactly the expected columns, none empty; pushes errors and returns
 * whether the row is usable. `order` names the columns in file order.
 */
export function checkRow(rec: CsvRecord, order: readonly string[], file: string, errors: ReadError[], move: string | null): boolean {
  const taskAt = order.indexOf('task')
  const raw = rec.fields[taskAt]
  const task = raw === undefined || raw === '' ? null : raw
  const push = (rule: ReadError['rule'], message: string): void => {
    errors.push({ file, line: rec.line, task, move, rule, message })
  }
  if (rec.fields.length < order.length) {
    push('missing-column', `expected ${order.length} columns (${order.join(', ')}), got ${rec.fields.length}`)
    return false
  }
  if (rec.fields.length > order.length) {
    push('extra-column', `expected ${order.length} columns (${order.join(', ')}), got ${rec.fields.length}`)
    return false
  }
  const empty = order.filter((_, i) => rec.fields[i] === '')
  if (empty.length > 0) {
    push('empty-field', `empty ${empty.join(', ')}`)
    return false
  }
  // Task and worker become ids in the store, which takes at most MAX_ID_LENGTH characters.
  const long = order.filter((c, i) => c !== 'label' && idFault(rec.fields[i]) !== null)
  if (long.length > 0) {
    push('wrong-type', `${long.join(', ')} longer than ${MAX_ID_LENGTH} characters (an id)`)
    return false
  }
  return true
}
