/**
 * Bulk rows by `COPY … FROM STDIN` (text format), PostgreSQL's own bulk path: an import batch's
 * tasks, moves and tallies. The array-parameter `INSERT … SELECT unnest(…)` it replaces spent
 * most of an import in the driver (escaping every element into one array literal, measuring it,
 * collecting the garbage) and in the server's parsing of that literal; COPY sends each row once,
 * as its text, encoded straight into one buffer. The rows arrive in the order written (a task's
 * `seq` is its order in the batch).
 */
import { pipeline } from 'node:stream/promises'
import { Readable } from 'node:stream'
import { from as copyFrom } from 'pg-copy-streams'
import type { PgSql } from './connection'

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
