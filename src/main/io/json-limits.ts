/**
 * What a parsed JSONL line may hold beyond JSON syntax, so that every value a reader accepts can
 * also be stored and read back unchanged. JSON.parse accepts three things the rest of Arbiter
 * cannot keep: nesting deeper than the store takes (store/validate.ts `checkJson`, 64 levels; and
 * far deeper lines overflow the stack of JSON.stringify when the task is hashed), numbers that
 * overflow to Infinity (`1e400`; the store refuses non-finite numbers), and `\ud800`-style escapes
 * that leave an unpaired UTF-16 surrogate (SQLite stores text as UTF-8, which turns it into U+FFFD:
 * two distinct ids would become one). Like strict JSON parsers (serde_json's recursion limit and
 * lone-surrogate errors), these are reported as malformed JSON, on the line. The limits themselves
 * live with the readers' other limits, in limits.ts.
 */

import { MAX_JSON_DEPTH } from './limits'

const LONE_SURROGATE = /\p{Cs}/u
// A lone surrogate can only come from a \uD800–\uDFFF escape, or from a string that already held
// one (in-memory text): only such lines pay for checking every string.
const MAY_HOLD_SURROGATE = /\\u[dD][89a-fA-F]|\p{Cs}/u

/** Why `value` (parsed from `line`) cannot be kept, or null when it can. */
export function jsonLimitFault(line: string, value: unknown): string | null {
  const fault = walk(value, 0, MAY_HOLD_SURROGATE.test(line))
  if (fault === null) return null
  const at = fault.path.length === 0 ? '' : ` at ${fault.path.reverse().join('')}`
  return `${fault.what}${at}`
}

interface Fault {
  what: string
  /** Innermost first (built while unwinding). */
  path: string[]
}

function walk(v: unknown, depth: number, surrogates: boolean): Fault | null {
  if (depth > MAX_JSON_DEPTH) return { what: `nested deeper than ${MAX_JSON_DEPTH} levels`, path: [] }
  if (typeof v === 'string') return surrogates && LONE_SURROGATE.test(v) ? { what: 'a string holds an unpaired UTF-16 surrogate (a \\uD800–\\uDFFF escape without its pair)', path: [] } : null
  if (typeof v === 'number') return Number.isFinite(v) ? null : { what: 'a number is too large to represent (it overflows to Infinity)', path: [] }
  if (v === null || typeof v !== 'object') return null
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const f = walk(v[i], depth + 1, surrogates)
      if (f !== null) return (f.path.push(`[${i}]`), f)
    }
    return null
  }
  for (const k in v) {
    if (surrogates && LONE_SURROGATE.test(k)) return { what: 'a key holds an unpaired UTF-16 surrogate', path: [] }
    const f = walk((v as Record<string, unknown>)[k], depth + 1, surrogates)
    if (f !== null) return (f.path.push(`.${k.length > 40 ? `${k.slice(0, 40)}…` : k}`), f)
  }
  return null
}
