/**
 * PostgreSQL's bulk paths, by COPY: rows in (`copyRows`, an import batch's tasks, moves and
 * tallies, a page of decisions) and large results out (`bulkRows`, a fit's tally packs).
 */
import { pipeline } from 'node:stream/promises'
import { Readable } from 'node:stream'
import { from as copyFrom, to as copyTo } from 'pg-copy-streams'
import type { ColumnType, TypedColumns } from '../plan'
import { toPgPlaceholders, type PgSql } from './connection'

/*
 * Bulk rows by `COPY … FROM STDIN` (text format), PostgreSQL's own bulk path: an import batch's
 * tasks, moves and tallies. The array-parameter `INSERT … SELECT unnest(…)` it replaces spent
 * most of an import in the driver (escaping every element into one array literal, measuring it,
 * collecting the garbage) and in the server's parsing of that literal; COPY sends each row once,
 * as its text, encoded straight into one buffer. The rows arrive in the order written (a task's
 * `seq` is its order in the batch).
 */

/** A field: text, a number, a boolean, bytes (bytea) or null. */
export type CopyField = string | number | boolean | Buffer | null

/** Text format's specials: the escape itself and the row and column separators. */
const SPECIAL = /[\\\n\r\t]/
const SPECIALS = /[\\\n\r\t]/g
const ESCAPED: Record<string, string> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' }

/** A number as float8 / integer input reads it back: String() of a finite number is the same double. */
function numberText(v: number): string {
  if (Number.isNaN(v)) return 'NaN'
  if (!Number.isFinite(v)) return v > 0 ? 'Infinity' : '-Infinity'
  return Object.is(v, -0) ? '-0' : String(v)
}

/** COPY's text of rows, written field by field into one growing buffer (no row strings, no join). */
class CopyText {
  private buf: Buffer
  private at = 0

  constructor(sizeHint: number) {
    this.buf = Buffer.allocUnsafe(Math.max(1024, sizeHint))
  }

  /** Room for `bytes` more (UTF-8 takes at most 3 bytes a UTF-16 unit). */
  private room(bytes: number): void {
    if (this.at + bytes <= this.buf.length) return
    const grown = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.at + bytes))
    this.buf.copy(grown, 0, 0, this.at)
    this.buf = grown
  }

  private ascii(s: string): void {
    this.room(s.length)
    this.at += this.buf.write(s, this.at, 'latin1')
  }

  private text(s: string): void {
    const v = SPECIAL.test(s) ? s.replace(SPECIALS, (c) => ESCAPED[c]) : s
    this.room(v.length * 3)
    this.at += this.buf.write(v, this.at, 'utf8')
  }

  field(v: CopyField): void {
    if (v === null) this.ascii('\\N')
    else if (typeof v === 'boolean') this.ascii(v ? 't' : 'f')
    else if (typeof v === 'number') this.ascii(numberText(v))
    // bytea in hex: `\x…`, its backslash escaped for the text format.
    else if (Buffer.isBuffer(v)) this.ascii(`\\\\x${v.toString('hex')}`)
    else this.text(v)
  }

  row(fields: readonly CopyField[]): void {
    for (let i = 0; i < fields.length; i++) {
      if (i > 0) this.ascii('\t')
      this.field(fields[i])
    }
    this.ascii('\n')
  }

  bytes(): Buffer {
    return this.buf.subarray(0, this.at)
  }
}

/** Rows as COPY's text (one line a row, tab-separated fields). */
function copyText(rows: readonly (readonly CopyField[])[]): Buffer {
  let hint = 0
  for (const r of rows) for (const f of r) hint += (typeof f === 'string' ? f.length : Buffer.isBuffer(f) ? 2 * f.length + 3 : 24) + 1
  const out = new CopyText(Math.ceil(hint * 1.05))
  for (const r of rows) out.row(r)
  return out.bytes()
}

/**
 * Writes `rows` into `table` (`columns` in the rows' order) in this transaction. A row the table
 * refuses (a constraint, bad JSON, a NUL) fails the whole COPY with the server's error, as the
 * INSERT would, and the caller's transaction rolls back.
 */
export async function copyRows(q: PgSql, table: string, columns: readonly string[], rows: readonly (readonly CopyField[])[]): Promise<void> {
  if (rows.length === 0) return
  const stream = q.client.query(copyFrom(`COPY ${table} (${columns.join(', ')}) FROM STDIN`))
  await pipeline(Readable.from([copyText(rows)]), stream)
}

/*
 * Large results by `COPY (query) TO STDOUT (FORMAT binary)`: a fit's tally packs and the pages a
 * first fit packs them from (about 360 MB of bytea at a million tasks). As the result of a SELECT,
 * node-pg receives bytea as hex text, decodes that text as UTF-8, then the hex: at a million tasks
 * that was most of a full decide's loading, which binary COPY avoids by handing over the bytes
 * themselves. The rows are the ones `q.all` would give, column for column: the caller
 * names each column's type, which binary COPY does not carry.
 */

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
