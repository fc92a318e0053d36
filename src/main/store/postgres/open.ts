/**
 * Opening the PostgreSQL store: a connection pool, migrations (one transaction under an advisory
 * lock), the sweep of dead and abandoned imports, and the async `Store`. Any failure ends the pool before
 * it is reported. The URL's password never appears in `info().dbLocation` nor in a message.
 */
import { randomUUID } from 'node:crypto'
import { checkMigrationList } from '../migrations'
import { StoreError, type Store } from '../contract'
import type { OpenOptions } from '../open-options'
import { sweepAtOpen } from '../ops/import-owners'
import { createPool, toStoreError } from './connection'
import { migratePostgres } from './migrate'
import { POSTGRES_MIGRATIONS } from './migrations'
import { createPostgresStore } from './store'

export type PostgresOpenOptions = OpenOptions & {
  /** Connections in the pool (default 4). */
  poolSize?: number
}

export const POSTGRES_URL = /^postgres(ql)?:\/\//i

/** The URL without its password (for `info().dbLocation` and messages). */
export function passwordFree(url: string): string {
  try {
    const u = new URL(url)
    if (u.password !== '') u.password = ''
    return u.toString()
  } catch {
    return url.replace(/^(postgres(?:ql)?:\/\/)([^@/]*)@/i, (_m, scheme: string, auth: string) =>
      `${scheme}${auth.includes(':') ? auth.slice(0, auth.indexOf(':')) : auth}@`
    )
  }
}

export async function openPostgresStore(url: string, opts: PostgresOpenOptions = {}): Promise<Store> {
  if (typeof url !== 'string' || !POSTGRES_URL.test(url)) {
    throw new StoreError('bad_input', 'a PostgreSQL store needs a postgres:// or postgresql:// URL')
  }
  const dbLocation = passwordFree(url)
  const readonly = opts.readonly === true
  const now = opts.now ?? (() => new Date())
  const migrations = opts.migrations ?? POSTGRES_MIGRATIONS
  checkMigrationList(migrations) // before connecting: a broken build must not touch the database

  const pool = createPool({ url, max: opts.poolSize })
  try {
    const client = await pool.connect()
    let report
    try {
      report = (await migratePostgres(client, migrations, { dbLocation, readonly, now })).report
    } finally {
      client.release()
    }
    const store = createPostgresStore(pool, { dbLocation, readonly, migration: report, now, writer: randomUUID() })
    if (!readonly) await sweepAtOpen(store)
    return store
  } catch (e) {
    await pool.end().catch(() => undefined)
    const err = toStoreError(e)
    // Driver messages name hosts and users, never the password; say which database failed.
    if (err.details.cause === undefined || typeof err.details.cause !== 'string') throw err
    throw new StoreError(err.code, `cannot open the PostgreSQL database ${dbLocation}: ${err.message}`, err.details)
  }
}
