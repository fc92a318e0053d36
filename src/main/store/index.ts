/**
 * The store's entry point: `openStore` picks the backend from the location. Callers import the
 * contract from here and never reach into a backend folder.
 */
import { openSqliteStore, type SqliteOpenOptions } from './sqlite/open'
import { StoreError, type Store } from './types'

export * from './types'
export type { Migration } from './migrations'
export { prepareTask, type PreparedTask } from './prepared-task'
export { openSqliteStore, DEFAULT_STALE_IMPORT_MS, type SqliteOpenOptions } from './sqlite/open'
export { SQLITE_MIGRATIONS } from './sqlite/migrations'

export type OpenStoreOptions = SqliteOpenOptions

const POSTGRES_URL = /^postgres(ql)?:\/\//i

/** Never echo a password from a connection URL into a message or a log. */
function redact(url: string): string {
  return url.replace(/^(postgres(?:ql)?:\/\/)([^@/]*)@/i, (_m, scheme: string, auth: string) =>
    `${scheme}${auth.includes(':') ? `${auth.slice(0, auth.indexOf(':'))}:***` : auth}@`
  )
}

/** A file path (or `:memory:`) opens the embedded SQLite store; a `postgres://` URL is refused for now. */
export async function openStore(location: string, opts: OpenStoreOptions = {}): Promise<Store> {
  if (typeof location === 'string' && POSTGRES_URL.test(location)) {
    throw new StoreError(
      'bad_input',
      `the PostgreSQL backend is not available yet (${redact(location)}); use a database file path`,
      { backend: 'postgres' }
    )
  }
  return openSqliteStore(location, opts)
}
