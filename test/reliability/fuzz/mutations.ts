/**
 * The mutations the fuzzer applies to a valid file, as fast-check arbitraries (so every case is
 * reproducible from the seed and shrinks to a small counterexample). Positions are naturals taken
 * modulo the current size, so a mutation always lands somewhere real.
 *
 * `benign` mutations (BOM, CRLF, blank lines, final newline) must not change what a file means:
 * a case made only of them must import exactly as the seed does.
 */
import fc from 'fast-check'
import { contentLines, joinLines, NASTY_BYTES, pick, splitLines } from './bytes'
import { mutateCsvLine, type CsvOp } from './mutate-csv'
import { mutateJsonLine, type JsonOp } from './mutate-json'

export type BenignOp = { op: 'bom' } | { op: 'crlf' } | { op: 'blank'; at: number; ws: string } | { op: 'final-newline' }

export type Op =
  | BenignOp
  | { op: 'flip'; at: number; mask: number }
  | { op: 'insert'; at: number; bytes: number[] }
  | { op: 'truncate'; at: number }
  | { op: 'delete-line'; at: number }
  | { op: 'duplicate-line'; at: number }
  | { op: 'swap-lines'; a: number; b: number }
  | { op: 'json'; at: number; m: JsonOp }
  | { op: 'csv'; at: number; m: CsvOp }

const at = fc.nat()

export const benignOp: fc.Arbitrary<BenignOp> = fc.oneof(
  fc.constant<BenignOp>({ op: 'bom' }),
  fc.constant<BenignOp>({ op: 'crlf' }),
  fc.record({ op: fc.constant('blank' as const), at, ws: fc.constantFrom('', ' ', '\t', '  \t ', '\r') }),
  fc.constant<BenignOp>({ op: 'final-newline' })
)

const jsonOp: fc.Arbitrary<JsonOp> = fc.oneof(
  fc.record({ kind: fc.constant('delete' as const), node: at }),
  fc.record({ kind: fc.constant('duplicate' as const), node: at }),
  fc.record({ kind: fc.constant('swap' as const), node: at, other: at }),
  fc.record({ kind: fc.constant('retype' as const), node: at, value: at }),
  fc.record({ kind: fc.constant('duplicate-key' as const), node: at })
)

const csvOp: fc.Arbitrary<CsvOp> = fc.oneof(
  fc.record({ kind: fc.constant('delete' as const), field: at }),
  fc.record({ kind: fc.constant('duplicate' as const), field: at }),
  fc.record({ kind: fc.constant('swap' as const), field: at, other: at }),
  fc.record({ kind: fc.constant('retype' as const), field: at, value: at }),
  fc.record({ kind: fc.constant('quote' as const), field: at })
)

/** Any mutation; the structural ones are drawn for the file's own kind. */
export function anyOp(kind: 'json' | 'csv'): fc.Arbitrary<Op> {
  return fc.oneof(
    { arbitrary: benignOp, weight: 2 },
    { arbitrary: fc.record({ op: fc.constant('flip' as const), at, mask: fc.integer({ min: 1, max: 255 }) }), weight: 3 },
    { arbitrary: fc.record({ op: fc.constant('insert' as const), at, bytes: fc.constantFrom(...NASTY_BYTES) }), weight: 3 },
    { arbitrary: fc.record({ op: fc.constant('truncate' as const), at }), weight: 1 },
    { arbitrary: fc.record({ op: fc.constant('delete-line' as const), at }), weight: 1 },
    { arbitrary: fc.record({ op: fc.constant('duplicate-line' as const), at }), weight: 1 },
    { arbitrary: fc.record({ op: fc.constant('swap-lines' as const), a: at, b: at }), weight: 1 },
    kind === 'json'
      ? { arbitrary: fc.record({ op: fc.constant('json' as const), at, m: jsonOp }), weight: 6 }
      : { arbitrary: fc.record({ op: fc.constant('csv' as const), at, m: csvOp }), weight: 6 }
  )
}

/** 0–4 mutations; one case in five is benign only (it must import as the seed does). */
export function opsFor(kind: 'json' | 'csv'): fc.Arbitrary<Op[]> {
  return fc.oneof(
    { arbitrary: fc.array(benignOp, { minLength: 1, maxLength: 3 }), weight: 1 },
    { arbitrary: fc.array(anyOp(kind), { minLength: 0, maxLength: 4 }), weight: 4 }
  )
}

export const isBenign = (ops: readonly Op[]): boolean => ops.every((o) => o.op === 'bom' || o.op === 'crlf' || o.op === 'blank' || o.op === 'final-newline')

export function applyOps(buf: Buffer, ops: readonly Op[], delimiter: string): Buffer {
  return ops.reduce((b, o) => applyOp(b, o, delimiter), buf)
}

function applyOp(buf: Buffer, o: Op, delimiter: string): Buffer {
  switch (o.op) {
    case 'bom':
      return buf.subarray(0, 3).equals(Buffer.from([0xef, 0xbb, 0xbf])) ? buf : Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), buf])
    case 'crlf':
      return Buffer.from(buf.toString('latin1').replace(/\r?\n/g, '\r\n'), 'latin1')
    case 'blank': {
      // Only at a line boundary, and never before a header (a header must stay the first record):
      // after the first line. A lone CR is a blank line only as a CRLF ending, so it gets its LF.
      const lines = splitLines(buf)
      const i = 1 + pick(o.at, lines.length)
      lines.splice(i, 0, Buffer.from(o.ws, 'latin1'))
      return joinLines(lines)
    }
    case 'final-newline':
      return buf.length > 0 && buf[buf.length - 1] === 0x0a ? buf.subarray(0, buf.length - 1) : Buffer.concat([buf, Buffer.from([0x0a])])
    case 'flip': {
      if (buf.length === 0) return buf
      const out = Buffer.from(buf)
      const i = pick(o.at, out.length)
      out[i] ^= o.mask
      return out
    }
    case 'insert': {
      const i = pick(o.at, buf.length + 1)
      return Buffer.concat([buf.subarray(0, i), Buffer.from(o.bytes), buf.subarray(i)])
    }
    case 'truncate':
      return buf.subarray(0, pick(o.at, buf.length + 1))
    case 'delete-line':
    case 'duplicate-line':
    case 'swap-lines':
      return lineOp(buf, o)
    case 'json':
    case 'csv': {
      const lines = splitLines(buf)
      const content = contentLines(lines)
      if (content.length === 0) return buf
      const i = content[pick(o.at, content.length)]
      lines[i] = o.op === 'json' ? mutateJsonLine(lines[i], o.m) : mutateCsvLine(lines[i], o.m, delimiter)
      return joinLines(lines)
    }
  }
}

function lineOp(buf: Buffer, o: Extract<Op, { op: 'delete-line' | 'duplicate-line' | 'swap-lines' }>): Buffer {
  const lines = splitLines(buf)
  const content = contentLines(lines)
  if (content.length === 0) return buf
  if (o.op === 'swap-lines') {
    const a = content[pick(o.a, content.length)]
    const b = content[pick(o.b, content.length)]
    ;[lines[a], lines[b]] = [lines[b], lines[a]]
  } else {
    const i = content[pick(o.at, content.length)]
    if (o.op === 'delete-line') lines.splice(i, 1)
    else lines.splice(i, 0, lines[i])
  }
  return joinLines(lines)
}
