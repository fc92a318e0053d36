/**
 * Inputs no mutation of a small file reaches: lines of several MB (a huge string field, a huge run
 * of garbage, 300,000 candidates, a row of 300,000 fields) and deep nesting (at and past the 64
 * levels the store keeps, 100,000 levels of `[`, an unclosed run). Each replaces or joins one line.
 */
import fc from 'fast-check'
import { contentLines, joinLines, pick, splitLines } from './bytes'

export type Special =
  | { kind: 'huge-string'; mb: number; at: number }
  | { kind: 'huge-garbage'; mb: number; at: number; fill: number }
  | { kind: 'many-items'; at: number }
  | { kind: 'deep'; depth: number; shape: 'bare' | 'field' | 'object' | 'unclosed'; at: number }

export const specialArb: fc.Arbitrary<Special> = fc.oneof(
  fc.record({ kind: fc.constant('huge-string' as const), mb: fc.integer({ min: 1, max: 3 }), at: fc.nat() }),
  fc.record({ kind: fc.constant('huge-garbage' as const), mb: fc.integer({ min: 1, max: 3 }), at: fc.nat(), fill: fc.integer({ min: 0, max: 255 }) }),
  fc.record({ kind: fc.constant('many-items' as const), at: fc.nat() }),
  fc.record({
    kind: fc.constant('deep' as const),
    depth: fc.constantFrom(63, 64, 65, 1000, 100_000),
    shape: fc.constantFrom('bare' as const, 'field' as const, 'object' as const, 'unclosed' as const),
    at: fc.nat()
  })
)

const MB = 1 << 20

function nested(depth: number, shape: 'bare' | 'field' | 'object' | 'unclosed'): string {
  if (shape === 'unclosed') return '['.repeat(depth)
  if (shape === 'object') return `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`
  return `${'['.repeat(depth)}${']'.repeat(depth)}`
}

/** A new version of one line (JSON: a parsable line gets the payload as an extra field). */
function jsonLine(original: string, s: Special): string {
  let obj: Record<string, unknown> | null = null
  try {
    const v = JSON.parse(original) as unknown
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) obj = v as Record<string, unknown>
  } catch {
    obj = null
  }
  const withField = (json: string): string => (obj === null ? json : `${JSON.stringify(obj).slice(0, -1)},"fuzz":${json}}`)
  switch (s.kind) {
    case 'huge-string':
      return withField(JSON.stringify('lorem ipsum '.repeat(Math.ceil((s.mb * MB) / 12))))
    case 'many-items': {
      // 300,000 distinct candidates: refused (too-many-candidates) without a quadratic scan.
      const cands = Array.from({ length: 300_000 }, (_, i) => `c${i}`)
      if (obj === null) return JSON.stringify(cands)
      const old = Array.isArray(obj.candidates) ? (obj.candidates as unknown[]) : []
      return JSON.stringify({ ...obj, candidates: [...old, ...cands.filter((c) => !old.includes(c))] })
    }
    case 'deep':
      return s.shape === 'bare' || s.shape === 'unclosed' ? nested(s.depth, s.shape) : withField(nested(s.depth, s.shape))
    case 'huge-garbage':
      return ''
  }
}

function csvLine(original: string, s: Special, delimiter: string): string {
  const fields = original.split(delimiter)
  switch (s.kind) {
    case 'huge-string':
      fields[0] = 'x'.repeat(s.mb * MB)
      return fields.join(delimiter)
    case 'many-items':
      return Array.from({ length: 300_000 }, (_, i) => `f${i}`).join(delimiter)
    case 'deep':
      fields[fields.length - 1] = nested(s.depth, s.shape)
      return fields.join(delimiter)
    case 'huge-garbage':
      return ''
  }
}

export function applySpecial(buf: Buffer, s: Special, kind: 'json' | 'csv', delimiter: string): Buffer {
  const lines = splitLines(buf)
  const content = contentLines(lines)
  const i = content.length === 0 ? 0 : content[pick(s.at, content.length)]
  if (s.kind === 'huge-garbage') {
    // Mostly one byte value, with every 997th byte an LF-free nasty one, so it is one line.
    const g = Buffer.alloc(s.mb * MB, s.fill === 0x0a ? 0x20 : s.fill)
    for (let k = 0; k < g.length; k += 997) g[k] = [0xff, 0x00, 0x22, 0x5b, 0xc3][k % 5]
    lines.splice(i, 0, g)
    return joinLines(lines)
  }
  const original = (lines[i] ?? Buffer.alloc(0)).toString('utf8')
  lines[i] = Buffer.from(kind === 'json' ? jsonLine(original, s) : csvLine(original, s, delimiter), 'utf8')
  return joinLines(lines)
}
