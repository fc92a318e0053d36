/**
 * PostgreSQL's bulk rows (postgres/copy.ts): what COPY's text format stores is exactly what
 * was given — every special character, NULL apart from the text "\N", numbers to the bit, bytes —
 * in the order given; a row the table refuses writes nothing.
 */
import pg from 'pg'
import { expect, it } from 'vitest'
import { transaction, type PgSql } from '../../../src/main/store/postgres/connection'
import { copyRows, type CopyField } from '../../../src/main/store/postgres/copy'
import { POSTGRES, usePostgres } from '../../helpers/postgres'
import { describeWith } from '../../helpers/prerequisites'

const cluster = usePostgres()

const TABLE = `CREATE TABLE t (seq bigint GENERATED ALWAYS AS IDENTITY, s text, j json, x float8, i integer, b bytea)`
const COLUMNS = ['s', 'j', 'x', 'i', 'b']

type Row = { s: string | null; j: string | null; x: number | null; i: number | null; b: Buffer | null }

describeWith(POSTGRES, 'PostgreSQL COPY rows', () => {
  async function withPool<T>(fn: (pool: pg.Pool) => Promise<T>): Promise<T> {
    const pool = new pg.Pool({ connectionString: await cluster().createDatabase(), max: 1 })
    try {
      await pool.query(TABLE)
      return await fn(pool)
    } finally {
      await pool.end()
    }
  }
  const read = async (pool: pg.Pool): Promise<Row[]> => {
    // float8 as its exact text (extra_float_digits 3 is the default shortest round trip), json as text.
    const r = await pool.query<{ s: string | null; j: string | null; x: string | null; i: number | null; b: Buffer | null }>('SELECT s, j::text AS j, x::text AS x, i, b FROM t ORDER BY seq')
    return r.rows.map((row) => ({ ...row, x: row.x === null ? null : Number(row.x) }))
  }

  it('stores every field exactly as given, in the order given', async () => {
    const allBytes = Buffer.from(Array.from({ length: 256 }, (_, i) => i))
    const big = `${'x'.repeat(1 << 20)}\\\t\n`
    const rows: Row[] = [
      { s: 'back\\slash, tab\there, new\nline, return\rand "quotes"', j: '{"a":"line\\nbreak \\"quoted\\" \\\\ back"}', x: 0.1 + 0.2, i: 1, b: allBytes },
      { s: '\\N', j: '[]', x: -0, i: -2147483648, b: Buffer.alloc(0) },
      { s: null, j: null, x: null, i: null, b: null },
      { s: '', j: '"é 🙂 e\u0301"', x: 5e-324, i: 2147483647, b: Buffer.from([0x5c, 0x0a, 0x09]) },
      { s: 'ünïcödé 🙂\u2028', j: '1.5e308', x: Number.MAX_VALUE, i: 0, b: null },
      { s: big, j: '{}', x: Number.NaN, i: 7, b: null },
      { s: 'last', j: 'null', x: Number.NEGATIVE_INFINITY, i: 8, b: null },
      { s: 'after', j: 'true', x: Number.POSITIVE_INFINITY, i: 9, b: null }
    ]
    await withPool(async (pool) => {
      await transaction(pool, 'write', (q) => copyRows(q, 't', COLUMNS, rows.map((r): CopyField[] => [r.s, r.j, r.x, r.i, r.b])))
      const back = await read(pool)
      expect(back.length).toBe(rows.length)
      back.forEach((got, n) => {
        const want = rows[n]
        expect(got.s).toBe(want.s)
        expect(got.j).toBe(want.j)
        expect(got.i).toBe(want.i)
        expect(got.b === null ? null : [...got.b]).toEqual(want.b === null ? null : [...want.b])
        if (want.x === null) expect(got.x).toBeNull()
        else expect(Object.is(got.x, want.x)).toBe(true)
      })
    })
  })

  it('writes nothing when one row is refused, with the server error code the store maps', async () => {
    await withPool(async (pool) => {
      const rows: CopyField[][] = [['fine', '{}', 1, 1, null], ['broken', '{not json', 2, 2, null]]
      const err = await transaction(pool, 'write', (q) => copyRows(q, 't', COLUMNS, rows)).catch((e: unknown) => e)
      expect((err as { code?: string }).code).toBe('22P02')
      expect(await read(pool)).toEqual([])
      // The connection is usable afterwards: the transaction rolled back, the COPY ended.
      await transaction(pool, 'write', (q: PgSql) => copyRows(q, 't', COLUMNS, [['ok', '1', 1, 1, null]]))
      expect((await read(pool)).map((r) => r.s)).toEqual(['ok'])
    })
  })
})
