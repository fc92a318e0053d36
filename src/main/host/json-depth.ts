/**
 * How deeply a JSON text nests, counted over its bytes before it is parsed: a body nested past the
 * limit is refused without the parse's cost (server-limits.ts, MAX_REQUEST_DEPTH). Brackets inside
 * strings do not count; the text need not be valid JSON (the parse that follows says so).
 */

const QUOTE = 0x22
const BACKSLASH = 0x5c
const OPEN_ARRAY = 0x5b
const CLOSE_ARRAY = 0x5d
const OPEN_OBJECT = 0x7b
const CLOSE_OBJECT = 0x7d

/** Whether `text` opens more than `max` arrays or objects inside one another; stops at the first past it. */
export function nestsDeeperThan(text: Uint8Array, max: number): boolean {
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text[i]
    if (inString) {
      if (c === BACKSLASH) i++
      else if (c === QUOTE) inString = false
    } else if (c === QUOTE) inString = true
    else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (++depth > max) return true
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) depth--
  }
  return false
}
