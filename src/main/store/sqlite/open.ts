/**
 * Opening the embedded store: connect, set pragmas, migrate (with a backup of existing data),
 * sweep dead and abandoned imports, and hand back the async `Store`. Any failure closes the connection
 * before it is reported, so a refused open leaves the file as it found it.
 */
import Database from 'better-sqlite3'
import { accessSync, constants, existsSync, statSync } from 'node:fs'
import { dirname } from 'node:path'
import { checkMigrationList } from '../migrations'
import { StoreError, type Store } from '../contract'
import type { OpenOptions } from '../open-options'
import { applyPragmas, DEFAULT_BUSY_TIMEOUT_MS, Sql, toStoreError, type Db } from './connection'
import { SqliteImportLocks } from './import-lock'
import { sweepAtOpen } from '../ops/import-owners'
import { migrateSqlite } from './migrate'
import { SQLITE_MIGRATIONS } from './migrations'
import { createSqliteStore } from './store'
import { openWriteGate } from './write-gate'
import { createPrivateFile } from './private-file'

export type SqliteOpenOptions = OpenOptions & {
  busyTimeoutMs?: number
  /**
   * Path of a better-sqlite3 `.node` binary built for another ABI (the Electron build ships
   * one); default: the binary next to the package, built for this Node.
   */
  nativeBinding?: string
}

export async function openSqliteStore(path: string, opts: SqliteOpenOptions = {}): Promise<Store> {
  const readonly = opts.readonly === true
  const now = opts.now ?? (() => new Date())
  openWriteGate()
  if (typeof path !== 'string' || path.trim() === '') throw new StoreError('bad_input', 'a database path is required')
  const isFile = path !== ':memory:' && !path.startsWith('file:')
  if (readonly && isFile && !existsSync(path)) {
    throw new StoreError('not_found', `no database at ${path}`, { path })
  }
  if (isFile && existsSync(path) && statSync(path).isDirectory()) {
    throw new StoreError('bad_input', `${path} is a directory, not a database file`, { path })
  }

  const migrations = opts.migrations ?? SQLITE_MIGRATIONS
  checkMigrationList(migrations) // before touching the file: a broken build must not create one

  let db: Db | null = null
  // A new database, its WAL and its SHM are the owner's alone (private-file.ts).
  if (isFile && !readonly && !existsSync(path)) createPrivateFile(path)
  try {
    db = new Database(path, {
      readonly,
      fileMustExist: readonly,
      ...(opts.nativeBinding === undefined ? {} : { nativeBinding: opts.nativeBinding })
    })
    applyPragmas(db, { readonly, busyTimeoutMs: opts.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS })
    const q = new Sql(db)
    const { report } = migrateSqlite(q, migrations, { path, readonly, now })
    const importLocks = new SqliteImportLocks(isFile ? path : null, opts.nativeBinding)
    const store = createSqliteStore(q, { dbLocation: path, readonly, migration: report, now, importLocks })
    if (!readonly) await sweepAtOpen(store)
    return store
  } catch (e) {
    try {
      db?.close()
    } catch {
      // the original error is the one worth reporting
    }
    const err = toStoreError(e)
    const why = err.details.cause === 'SQLITE_CANTOPEN' && isFile && existsSync(path) ? unwritable(path) : null
    if (why === null) throw err
    throw new StoreError('bad_input', `cannot open the database ${path}: ${why}, and SQLite must write the database's -wal and -shm files next to it`, { path, cause: 'SQLITE_CANTOPEN' })
  }
}

/**
 * Why an existing database could not be opened, when the file system says so: SQLite reports a
 * read-only mount or folder only as "unable to open database file".
 */
function unwritable(path: string): string | null {
  for (const [p, what] of [[dirname(path), 'its folder'], [path, 'the file']] as const) {
    try {
      accessSync(p, constants.W_OK)
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code
      if (code === 'EROFS') return `${what} is on a read-only file system`
      if (code === 'EACCES' || code === 'EPERM') return `${what} is not writable by this user`
    }
  }
  return null
}
