/**
 * The connection pool behind a PostgreSQL store: one pooled client per operation, transactions,
 * `?` placeholders (as in the SQLite files, so the two backends read alike), type parsing, and the
 * mapping of driver errors onto StoreError. The async boundary is here and in store.ts.
 *
 * Concurrency (what SQLite's single writer gave for free), by kind of transaction:
 * - `write`: SERIALIZABLE, retried from the start when PostgreSQL reports a serialization failure
 *   or a deadlock (imports, fits, settings: rare writes whose reads span many rows).
 * - `task`: a write about ONE task (reserve, release, label, undo) that first locks the task's row
 *   (`SELECT … FOR UPDATE`, ./labels.ts lockTask) and reads nothing it relies on before that.
 *   It runs READ COMMITTED: the row lock orders every such write on one task, and in READ
 *   COMMITTED each statement after the lock sees what the previous holder committed, so the
 *   read-check-write (version, reservation) is done on current data — two resolves of one task at
 *   one version cannot both succeed, a live hold of another session always refuses the write.
 *   SERIALIZABLE would add nothing here but SSI predicate locks: the tiny `reservations` table is
 *   read by a sequential scan, so every reserve/release/resolve conflicted with every other one and
 *   retried (a few gave up). Deadlocks are still retried.
 * - `read`: REPEATABLE READ READ ONLY, one snapshot per operation (SQLite's deferred read).
 */
import pg from 'pg'
import { StoreError } from '../contract'

export type Params = unknown[]

/** int8 (counts, identities) as numbers; json as its text (parsed by rows.ts, as in SQLite). */
const INT8 = 20
const NUMERIC = 1700
const JSON_OID = 114
export const TYPES = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8 || oid === NUMERIC) return (v: string) => Number(v)
    if (oid === JSON_OID) return (v: string) => v
    return pg.types.getTypeParser(oid, format)
  }
} as unknown as pg.CustomTypesConfig

/** `?` → `$1, $2, …` (or what `placeholder` makes of the n-th), outside single-quoted literals and double-quoted identifiers. */
export function toPgPlaceholders(sql: string, placeholder: (n: number) => string = (n) => `$${n}`): string {
  let out = ''
  let n = 0
  let quote: string | null = null
  for (const ch of sql) {
    if (quote !== null) {
      if (ch === quote) quote = null
      out += ch
    } else if (ch === "'" || ch === '"') {
      quote = ch
      out += ch
    } else if (ch === '?') {
      out += placeholder(++n)
    } else out += ch
  }
  return out
}

const converted = new Map<string, string>()
function pgText(sql: string): string {
  let s = converted.get(sql)
  if (s === undefined) {
    s = toPgPlaceholders(sql)
    converted.set(sql, s)
  }
  return s
}

/** One transaction's queries (the SQLite `Sql` class, async). */
export class PgSql {
  constructor(readonly client: pg.ClientBase) {}

  async all<T>(sql: string, ...params: Params): Promise<T[]> {
    return (await this.client.query(pgText(sql), params)).rows as T[]
  }

  async get<T>(sql: string, ...params: Params): Promise<T | undefined> {
    const rows = await this.all<T>(sql, ...params)
    return rows[0]
  }

  /** Returns the number of rows changed. */
  async run(sql: string, ...params: Params): Promise<number> {
    return (await this.client.query(pgText(sql), params)).rowCount ?? 0
  }

  /** Several statements, no parameters (migrations). */
  async exec(sql: string): Promise<void> {
    await this.client.query(sql)
  }
}

export type PoolOptions = { url: string; max?: number }

export function createPool(opts: PoolOptions): pg.Pool {
  const pool = new pg.Pool({
    connectionString: opts.url,
    max: opts.max ?? 4,
    types: TYPES,
    application_name: 'arbiter',
    idleTimeoutMillis: 10_000,
    connectionTimeoutMillis: 15_000
  })
  // An idle client's error (server restart) must not crash the process; the next query reports it.
  pool.on('error', () => undefined)
  return pool
}

const RETRYABLE = new Set(['40001', '40P01']) // serialization_failure, deadlock_detected
const MAX_ATTEMPTS = 12

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

async function rollback(client: pg.ClientBase): Promise<void> {
  try {
    await client.query('ROLLBACK')
  } catch {
    // the connection is gone; the server rolled back
  }
}

export type TransactionMode = 'read' | 'write' | 'task' | 'staged'

/**
 * `staged`: rows no one sees until a later write publishes them (an import's batches, a decide's
 * pages): their commit does not wait for the disk (synchronous_commit off, this transaction only).
 * A crash may lose the last of them, never half of one, and the durable commit that publishes them
 * flushes the log up to itself, so every staged write before it is on disk first.
 */
const BEGIN: Record<TransactionMode, string> = {
  read: 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY',
  write: 'BEGIN ISOLATION LEVEL SERIALIZABLE',
  task: 'BEGIN ISOLATION LEVEL READ COMMITTED',
  staged: 'BEGIN ISOLATION LEVEL SERIALIZABLE; SET LOCAL synchronous_commit = off'
}

/**
 * Runs `fn` in one transaction at the mode's isolation, retried (see top): on a pooled client, or
 * on `own` — an import's own connection, the one holding its lock (import-lock.ts).
 */
export async function transaction<T>(pool: pg.Pool, mode: TransactionMode, fn: (q: PgSql) => Promise<T>, own: pg.ClientBase | null = null): Promise<T> {
  const begin = BEGIN[mode]
  for (let attempt = 1; ; attempt++) {
    const client = own ?? (await pool.connect())
    let broken = false
    try {
      await client.query(begin)
      const value = await fn(new PgSql(client))
      await client.query('COMMIT')
      return value
    } catch (e) {
      await rollback(client)
      const code = (e as { code?: unknown }).code
      broken = !(e instanceof StoreError) && typeof code !== 'string'
      if (typeof code === 'string' && RETRYABLE.has(code) && attempt < MAX_ATTEMPTS) {
        await sleep(Math.random() * 5 * attempt)
        continue
      }
      throw e
    } finally {
      if (own === null) (client as pg.PoolClient).release(broken)
    }
  }
}

/** Driver errors never leave the store as such: constraint failures are the caller's input. */
export function toStoreError(e: unknown): StoreError {
  if (e instanceof StoreError) return e
  const err = e as { code?: unknown; message?: unknown }
  const message = e instanceof Error ? e.message : String(e)
  if (typeof err.code === 'string') {
    const code = err.code
    // 23xxx integrity constraints, 22xxx data exceptions (e.g. a NUL character in text), P0001 a trigger's RAISE.
    if (code.startsWith('23') || code.startsWith('22') || code === 'P0001') return new StoreError('bad_input', message, { cause: code })
    if (RETRYABLE.has(code)) {
      return new StoreError('internal', `the database stayed busy with concurrent writers: ${message}`, { cause: code })
    }
    if (code === '3D000') return new StoreError('not_found', `no such database: ${message}`, { cause: code })
    if (code === '28P01' || code === '28000') return new StoreError('bad_input', `the database refused the login: ${message}`, { cause: code })
    if (code === '53100') {
      return new StoreError('internal', 'could not write to the database: the disk is full; nothing of this operation was saved', { cause: code })
    }
    if (code === '25006') {
      return new StoreError('internal', `could not write to the database: it is read-only here (${message}); nothing of this operation was saved`, { cause: code })
    }
    if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'ETIMEDOUT') {
      return new StoreError('not_found', `cannot reach the database server: ${message}`, { cause: code })
    }
    return new StoreError('internal', message, { cause: code })
  }
  return new StoreError('internal', message)
}
