/**
 * The PostgreSQL `Store` (../build-store.ts): each operation is one transaction on a pooled
 * connection (connection.ts: writes SERIALIZABLE and retried on a serialization failure, except the
 * one-task writes — reserve, release, label, undo — which lock the task's row first and run READ
 * COMMITTED; reads one REPEATABLE READ snapshot), and a plan runs in it one awaited statement at a
 * time (plan-driver.ts). Every write also bumps this store's data-version row and NOTIFYs its
 * topics, in the same transaction (status.ts, notify.ts). Here are only what PostgreSQL does its
 * own way: its transactions, its change feed, its status, its bulk writes and its queue.
 */
import type pg from 'pg'
import { buildStore, type BackendOperations, type Driver } from '../build-store'
import type { MigrationReport, Store } from '../contract'
import { decisionsTable } from '../fit-decisions'
import type { Tx } from '../operations'
import { toStoreError, transaction, type PgSql, type TransactionMode } from './connection'
import { POSTGRES } from './dialect'
import { appendDecisionPage, redecideRows } from './fits'
import * as imports from './imports'
import { PgImportLocks } from './import-lock'
import { ChangeListeners, notifyChange } from './notify'
import { runPlan } from './plan-driver'
import * as status from './status'
import { bumpDataVersion, dataVersion, schemaVersion } from './status'
import * as tallies from './tallies'

export type PostgresStoreMeta = {
  /** The connection URL without its password. */
  dbLocation: string
  readonly: boolean
  migration: MigrationReport | null
  now: () => Date
  /** This store's row in `data_versions`. */
  writer: string
}

/** SQLite's finishing writes are PostgreSQL's ordinary ones; staged ones commit without waiting for the disk (connection.ts). */
const MODE: Record<Tx, TransactionMode> = { read: 'read', write: 'write', task: 'task', staged: 'staged', finish: 'write' }

/**
 * A decide's new table is vacuumed as soon as it is published, not when autovacuum next passes
 * (within a minute or so): until then no page of it is marked all-visible, so a queue index cannot
 * be walked without visiting the table for every entry, and the planner sorts every deferred row
 * for a deep page instead. The vacuum runs beside whatever comes next;
 * `close` waits for it (a decide's job posts its result first, as SQLite's checkpoint does).
 */
function vacuumer(pool: pg.Pool): { vacuum(table: string): void; settled(): Promise<void> } {
  const running = new Set<Promise<void>>()
  return {
    vacuum(table) {
      // A table dropped meanwhile (a fit rolled back), a server gone: autovacuum's job again.
      const p: Promise<void> = pool.query(`VACUUM (ANALYZE) ${table}`).then(() => undefined, () => undefined).finally(() => running.delete(p))
      running.add(p)
    },
    settled: async () => {
      await Promise.all([...running])
    }
  }
}

export function createPostgresStore(pool: pg.Pool, meta: PostgresStoreMeta): Store {
  const upkeep = vacuumer(pool)
  const listeners = new ChangeListeners({ connectionString: pool.options.connectionString, connectionTimeoutMillis: 15_000 }, meta.writer)
  const importLocks = new PgImportLocks(pool.options.connectionString)
  const driver: Driver<PgSql> = {
    dialect: POSTGRES,
    readonly: meta.readonly,
    now: meta.now,
    // An import's writes run on the connection that holds its lock (import-lock.ts).
    transaction: (tx, topics, fn, importId) =>
      transaction(
        pool,
        MODE[tx],
        async (q) => {
          const value = await fn(q)
          if (topics !== null) {
            await bumpDataVersion(q, meta.writer)
            await notifyChange(q, meta.writer, topics)
          }
          return value
        },
        importId === undefined ? null : importLocks.clientOf(importId)
      ),
    importLocks,
    runPlan,
    toStoreError,
    close: async () => {
      await listeners.closeAll()
      await upkeep.settled()
      await pool.end()
    },
    decided: (fitId) => upkeep.vacuum(decisionsTable(fitId)),
    listenChanges: (events) => listeners.listen(events)
  }
  const own: BackendOperations<PgSql> = {
    ...imports, ...status, ...tallies, appendDecisionPage, redecideRows,
    info: async (q: PgSql) => ({ backend: 'postgres' as const, dbLocation: meta.dbLocation, schemaVersion: await schemaVersion(q), readonly: meta.readonly, migration: meta.migration }),
    dataVersion: (q: PgSql) => dataVersion(q, meta.writer)
  }
  return buildStore(driver, own)
}
