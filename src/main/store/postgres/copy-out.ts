/**
 * Large results by `COPY (query) TO STDOUT (FORMAT binary)`: a fit's tally packs and the pages a
 * first fit packs them from (about 360 MB of bytea at a million tasks). As the result of a SELECT,
 * node-pg receives bytea as hex text, decodes that text as UTF-8, then the hex: at a million tasks
 * a full decide's loading took 16.6 s that way and 6.5 s by binary COPY, which hands over the bytes
 * themselves. The rows are the ones `q.all` would give, column for column: the caller
 * names each column's type, which binary COPY does not carry.
 */
import { to as copyTo } from 'pg-copy-streams'
import type { ColumnType, TypedColumns } from '../plan'
import { toPgPlaceholders, type PgSql } from './connection'

const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1')

/** A parameter as a literal: COPY takes none, so the query carries them. */
function literal(q: PgSql, v: unknown): string {
  if (typeof v === 'string') return q.client.escapeLiteral(v)
  if (typeof v === 'number' && Number.isFinite(v)) return String(v)
  throw new TypeError(`a bulk read takes text and finite numbers as parameters, not ${typeof v}`)
}

/** One field's bytes as `q.all` would give it. */
function field(type: ColumnType, buf: Buffer, at: number, len: number): unknown {
  switch (type) {
    case 'text':
    case 'json':
      return buf.toString('utf8', at, at + len)
    case 'int4':
      return buf.readInt32BE(at)
    case 'float8':
      return buf.readDoubleBE(at)
    case 'bytea':
      return buf.subarray(at, at + len)
  }
}

/** Parses binary COPY output (its header, tuples, trailer) into rows keyed by `columns`. */
export function parseBinaryCopy<R>(buf: Buffer, columns: TypedColumns): R[] {
  if (buf.length < 19 || !buf.subarray(0, SIGNATURE.length).equals(SIGNATURE)) throw new Error('binary COPY: no PGCOPY signature')
  let at = 11 + 4
  at += 4 + buf.readInt32BE(at)
  const rows: R[] = []
  for (;;) {
    const n = buf.readInt16BE(at)
    at += 2
    if (n === -1) break
    if (n !== columns.length) throw new Error(`binary COPY: a row of ${n} fields, expected ${columns.length}`)
    const row: Record<string, unknown> = {}
    for (const [name, type] of columns) {
      const len = buf.readInt32BE(at)
      at += 4
      if (len === -1) row[name] = null
      else {
        row[name] = field(type, buf, at, len)
        at += len
      }
    }
    rows.push(row as R)
  }
  return rows
}

/** `sql` (with `?` parameters) run as a binary COPY in this transaction: its rows, as `q.all` gives them. */
export async function bulkRows<R>(q: PgSql, sql: string, params: readonly unknown[], columns: TypedColumns): Promise<R[]> {
  let placeholders = 0
  const text = toPgPlaceholders(sql, (n) => {
    placeholders = n
    return n <= params.length ? literal(q, params[n - 1]) : '?'
  })
  if (placeholders !== params.length) throw new Error(`a bulk read has ${placeholders} placeholders for ${params.length} parameters`)
  const chunks: Buffer[] = []
  for await (const chunk of q.client.query(copyTo(`COPY (${text}) TO STDOUT (FORMAT binary)`))) chunks.push(chunk as Buffer)
  return parseBinaryCopy<R>(Buffer.concat(chunks), columns)
}
