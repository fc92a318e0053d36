/**
 * The SQLite `Store` (../build-store.ts): each operation runs in one synchronous transaction, and
 * a plan runs synchronously inside it (plan-driver.ts). Here are only what SQLite does its own way:
 * its transactions, its status, its bulk writes and its queue.
 */
import { buildStore, type BackendOperations, type Driver } from '../build-store'
import type { MigrationReport, Store } from '../contract'
import type { Tx } from '../operations'
import { toStoreError, type Sql } from './connection'
import { SQLITE } from './dialect'
import { appendDecisionPage, redecideRows } from './fits'
import * as imports from './imports'
import type { SqliteImportLocks } from './import-lock'
import { runPlan } from './plan-driver'
import * as status from './status'
import { schemaVersion } from './status'
import * as tallies from './tallies'
import { gatedWrite } from './write-gate'

export type SqliteStoreMeta = {
  dbLocation: string
  readonly: boolean
  migration: MigrationReport | null
  now: () => Date
  importLocks: SqliteImportLocks
}

/**
 * `staged`: need not survive a power cut on its own; `finish`: leaves the checkpoint to close
 * (connection.ts). Every write goes through the gate: the main thread's first (write-gate.ts).
 */
function transaction<T>(q: Sql, tx: Tx, fn: () => T): T {
  if (tx === 'read') return q.read(fn)
  return gatedWrite(() => (tx === 'staged' ? q.writeStaged(fn) : tx === 'finish' ? q.writeUncheckpointed(fn) : q.write(fn)))
}

export function createSqliteStore(q: Sql, meta: SqliteStoreMeta): Store {
  const driver: Driver<Sql> = {
    dialect: SQLITE,
    readonly: meta.readonly,
    now: meta.now,
    // One connection: an import's transactions run on it like any other (its lock is a side file).
    transaction: (tx, _topics, fn) => transaction(q, tx, () => fn(q)),
    importLocks: meta.importLocks,
    runPlan,
    toStoreError,
    close: () => {
      q.payCheckpoint()
      q.db.close()
    }
  }
  const info = (q: Sql) => ({ backend: 'sqlite' as const, dbLocation: meta.dbLocation, schemaVersion: schemaVersion(q), readonly: meta.readonly, migration: meta.migration })
  const own: BackendOperations<Sql> = { ...imports, ...status, ...tallies, appendDecisionPage, redecideRows, info }
  return buildStore(driver, own)
}
