/**
 * PostgreSQL's bulk reads (postgres/copy.ts): a query read by binary COPY gives exactly the
 * rows `q.all` gives — text and json with every special character, NULLs, float8 to the bit,
 * int4 at its limits, bytea of every byte value and of a megabyte — with its parameters inlined
 * as literals that no quote in them can break out of (the store's pool and type parsers).
 */
import pg from 'pg'
import { expect, it } from 'vitest'
import { transaction, TYPES } from '../../../src/main/store/postgres/connection'
import { bulkRows, parseBinaryCopy } from '../../../src/main/store/postgres/copy'
import { copyRows, type CopyField } from '../../../src/main/store/postgres/copy'
import type { TypedColumns } from '../../../src/main/store/plan'
import { POSTGRES, usePostgres } from '../../helpers/postgres'
import { describeWith } from '../../helpers/prerequisites'

const cluster = usePostgres()

const COLUMNS: TypedColumns = [['s', 'text'], ['j', 'json'], ['x', 'float8'], ['i', 'int4'], ['b', 'bytea']]
const SELECT = 'SELECT s, j, x, i, b FROM t WHERE coalesce(s, \'\') <> ? AND seq > ? ORDER BY seq'

describeWith(POSTGRES, 'PostgreSQL bulk reads (binary COPY)', () => {
  it('gives the rows q.all gives, column for column', async () => {
    const pool = new pg.Pool({ connectionString: await cluster().createDatabase(), max: 1, types: TYPES })
    try {
      await pool.query('CREATE TABLE t (seq bigint GENERATED ALWAYS AS IDENTITY, s text, j json, x float8, i integer, b bytea)')
      const rows: CopyField[][] = [
        ["it's \\ a \t tab, a\nnew line and 'quotes'", '{"a":"é 🙂"}', 0.1 + 0.2, 1, Buffer.from(Array.from({ length: 256 }, (_, i) => i))],
        ['', '[]', -0, -2147483648, Buffer.alloc(0)],
        [null, null, null, null, null],
        ['ünïcödé 🙂\u2028', 'null', 5e-324, 2147483647, Buffer.alloc(1 << 20, 7)],
        ['nan', '1', Number.NaN, 0, null],
        ['inf', '2', Number.NEGATIVE_INFINITY, 3, null],
        ['skipped by the parameter', '3', 1, 4, null]
      ]
      await transaction(pool, 'write', (q) => copyRows(q, 't', COLUMNS.map(([c]) => c), rows))
      const params = ['skipped by the parameter', 0]
      const [viaSelect, viaCopy] = await transaction(pool, 'read', async (q) => [await q.all<Record<string, unknown>>(SELECT, ...params), await bulkRows<Record<string, unknown>>(q, SELECT, params, COLUMNS)])
      expect(viaSelect.length).toBe(rows.length - 1)
      expect(viaCopy.length).toBe(viaSelect.length)
      viaCopy.forEach((got, n) => {
        const want = viaSelect[n]
        expect(Object.keys(got)).toEqual(Object.keys(want))
        for (const [name] of COLUMNS) {
          const a = got[name]
          const b = want[name]
          if (Buffer.isBuffer(b)) expect(Buffer.isBuffer(a) && a.equals(b)).toBe(true)
          else expect(Object.is(a, b), `${name} of row ${n}: ${String(a)} vs ${String(b)}`).toBe(true)
        }
      })

      // A quote in a parameter stays inside its literal: no row has this text, so none comes back.
      const injected = await transaction(pool, 'read', (q) => bulkRows(q, 'SELECT s, j, x, i, b FROM t WHERE s = ?', ["x' OR true --"], COLUMNS))
      expect(injected).toEqual([])
      await expect(transaction(pool, 'read', (q) => bulkRows(q, SELECT, ['only one'], COLUMNS))).rejects.toThrow(/2 placeholders for 1 parameters/)
      await expect(transaction(pool, 'read', (q) => bulkRows(q, SELECT, ['a', Number.NaN], COLUMNS))).rejects.toThrow(/finite numbers/)
      await expect(transaction(pool, 'read', (q) => bulkRows(q, 'SELECT s, j FROM t', [], COLUMNS))).rejects.toThrow(/a row of 2 fields, expected 5/)
    } finally {
      await pool.end()
    }
  })
})

it('refuses what is not binary COPY output', () => {
  expect(() => parseBinaryCopy(Buffer.from('s\tj\n'), COLUMNS)).toThrow(/no PGCOPY signature/)
})
