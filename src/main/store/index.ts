/**
 * The store's entry point: `openStore` picks the backend from the database location. Callers import the
 * contract from here and never reach into a backend folder.
 */
import { openSqliteStore, type SqliteOpenOptions } from './sqlite/open'
import { openPostgresStore, passwordFree, POSTGRES_URL } from './postgres/open'
import type { Store } from './contract'

export * from './contract'
export type { Migration } from './migrations'
export { topicsOf, type OperationName } from './operations'
export { prepareTask } from './prepared-task'
export { DecisionPageBuilder, pageBuffers } from './decision-page'
export { WhatIfBuilder } from './what-if-figures'
export type { OpenOptions } from './open-options'
export { openSqliteStore, type SqliteOpenOptions } from './sqlite/open'
export { SQLITE_MIGRATIONS } from './sqlite/migrations'
export { openPostgresStore, passwordFree, type PostgresOpenOptions } from './postgres/open'
export { POSTGRES_MIGRATIONS } from './postgres/migrations'

export type OpenStoreOptions = SqliteOpenOptions

/**
 * Whether a database location names a database server (a `postgres://` URL) rather than a file:
 * what only makes sense for a file (moving it aside, deleting a half-built one, checking that it
 * exists, creating its folder) must ask this first.
 */
export function isServerLocation(dbLocation: string): boolean {
  return typeof dbLocation === 'string' && POSTGRES_URL.test(dbLocation)
}

/** A database location as it may be shown or written anywhere: a server URL without its password. */
export function shownLocation(dbLocation: string): string {
  return isServerLocation(dbLocation) ? passwordFree(dbLocation) : dbLocation
}

/**
 * A `postgres://` or `postgresql://` URL opens the PostgreSQL store; anything else is a SQLite
 * file path (or `:memory:`). SQLite-only options (native binding, busy timeout, a migration list
 * of SQLite's dialect) do not apply to PostgreSQL; `readonly` and `now` do.
 */
export async function openStore(dbLocation: string, opts: OpenStoreOptions = {}): Promise<Store> {
  if (isServerLocation(dbLocation)) {
    return openPostgresStore(dbLocation, {
      ...(opts.readonly === undefined ? {} : { readonly: opts.readonly }),
      ...(opts.now === undefined ? {} : { now: opts.now })
    })
  }
  return openSqliteStore(dbLocation, opts)
}
