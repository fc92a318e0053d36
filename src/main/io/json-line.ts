import { LineErrors } from './json-fields'
import { isBlank } from './lines'
import type { ReadError } from './read-error'

/**
 * One physical line of a JSONL file, parsed: null for a blank line (skipped, but counted by the
 * caller so line numbers stay physical); `parsed: false` with its `malformed-json` error recorded
 * in `errors`; else the value and the line's error collector for the validator that follows.
 */
export function parseJsonLine(
  file: string,
  lineNo: number,
  line: string,
  errors: ReadError[]
): { parsed: true; value: unknown; errs: LineErrors } | { parsed: false } | null {
  if (isBlank(line)) return null
  const errs = new LineErrors(file, lineNo)
  try {
    return { parsed: true, value: JSON.parse(line), errs }
  } catch (e) {
    errs.add('malformed-json', (e as Error).message)
    errors.push(...errs.list)
    return { parsed: false }
  }
}
