import { LineErrors } from './json-fields'
import { jsonLimitFault } from './json-limits'
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
  const value = parseLimited(line, errs)
  if (errs.empty) return { parsed: true, value, errs }
  errors.push(...errs.list)
  return { parsed: false }
}

/**
 * JSON.parse plus the limits of json-limits.ts; on failure adds one `malformed-json` error to
 * `errs` and returns undefined. Shared by every JSONL reader so they accept exactly the same lines.
 */
export function parseLimited(line: string, errs: LineErrors): unknown {
  let value: unknown
  try {
    value = JSON.parse(line)
  } catch (e) {
    errs.add('malformed-json', (e as Error).message)
    return undefined
  }
  const fault = jsonLimitFault(line, value)
  if (fault !== null) errs.add('malformed-json', `valid JSON, but Arbiter cannot keep it: ${fault}`)
  return fault === null ? value : undefined
}
