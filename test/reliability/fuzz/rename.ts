/**
 * Gives a seed's tasks fresh ids (a prefix), so a full-import case can be accepted instead of
 * colliding with the tasks the database already holds. CSV rows are re-emitted through the io
 * record parser, quoting for the comma dialect, so quoted seeds survive.
 */
import { delimiterFor, parseRecords, type CsvDialect } from '../../../src/main/io'
import type { SeedFile } from './seeds'

const DELIM = { comma: ',', semicolon: ';', tab: '\t', space: ' ' } as const

export function delimiterOf(seed: Pick<SeedFile, 'dialect' | 'fileName'>): string {
  return DELIM[delimiterFor(seed.dialect, seed.fileName)]
}

function renameRows(text: string, columns: readonly string[], dialect: CsvDialect, delim: string, prefix: string): string {
  const d = delim === ',' ? 'comma' : delim === ';' ? 'semicolon' : delim === '\t' ? 'tab' : 'space'
  const { records } = parseRecords(text, d, 'seed')
  const taskAt = columns.indexOf('task')
  const quoted = delim === ',' || delim === ';'
  const cell = (f: string): string => (quoted && (/["\n\r]/.test(f) || f.includes(delim)) ? `"${f.replace(/"/g, '""')}"` : f)
  return `${records.map((r, i) => (dialect.header && i === 0 ? r.fields : r.fields.map((f, j) => (j === taskAt ? prefix + f : f))).map(cell).join(delim)).join('\n')}\n`
}

export function renameSeed(seed: SeedFile, prefix: string): { bytes: Buffer; gold: Buffer | null } {
  if (seed.kind === 'traces') {
    const lines = seed.bytes.toString('utf8').split('\n').filter((l) => l.trim() !== '')
    const renamed = lines.map((l) => JSON.stringify({ ...(JSON.parse(l) as object), task: prefix + (JSON.parse(l) as { task: string }).task }))
    return { bytes: Buffer.from(`${renamed.join('\n')}\n`), gold: null }
  }
  if (seed.kind === 'labels') return { bytes: seed.bytes, gold: seed.gold }
  const delim = delimiterOf(seed)
  const bytes = Buffer.from(renameRows(seed.bytes.toString('utf8'), seed.dialect.columns, seed.dialect, delim, prefix))
  const gold = seed.gold === null ? null : Buffer.from(renameRows(seed.gold.toString('utf8'), seed.dialect.columns.filter((c) => c !== 'worker'), seed.dialect, delim, prefix))
  return { bytes, gold }
}
