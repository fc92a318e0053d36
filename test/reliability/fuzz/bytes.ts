/**
 * Byte-level helpers for the mutators: a file is handled as bytes, never as a string, so a
 * mutation can cut a multi-byte character, insert invalid UTF-8 or a NUL, exactly as a damaged or
 * hostile file would arrive.
 */

/** Physical lines split on LF; the LF itself is not kept (a final LF leaves an empty last entry). */
export function splitLines(buf: Buffer): Buffer[] {
  const out: Buffer[] = []
  let start = 0
  for (let nl = buf.indexOf(0x0a); nl >= 0; nl = buf.indexOf(0x0a, start)) {
    out.push(buf.subarray(start, nl))
    start = nl + 1
  }
  out.push(buf.subarray(start))
  return out
}

export function joinLines(lines: Buffer[]): Buffer {
  const parts: Buffer[] = []
  lines.forEach((l, i) => {
    if (i > 0) parts.push(Buffer.from([0x0a]))
    parts.push(l)
  })
  return Buffer.concat(parts)
}

/** Index `n` (any natural) mapped into [0, size); 0 for an empty range. */
export const pick = (n: number, size: number): number => (size <= 0 ? 0 : n % size)

/** The non-empty lines' indices (mutating a blank or the final empty entry is rarely useful). */
export function contentLines(lines: Buffer[]): number[] {
  const out: number[] = []
  lines.forEach((l, i) => {
    if (l.length > 0) out.push(i)
  })
  return out
}

/** Byte sequences that break decoders and parsers: NUL, invalid and truncated UTF-8, BOM, CR, quotes, brackets, U+2028. */
export const NASTY_BYTES: readonly number[][] = [
  [0x00], [0xff], [0xfe], [0xc3], [0x80], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80],
  [0xef, 0xbb, 0xbf], [0x0d], [0x0a], [0x0d, 0x0a], [0x22], [0x2c], [0x09], [0x20], [0x5c], [0x7b],
  [0x7d], [0x5b], [0x5d], [0x3a], [0xe2, 0x80, 0xa8], [0xf0, 0x9f, 0x98]
]
