/**
 * Where a service-level test keeps its database, for suites that run on both backends (
 * one shared suite, two backends): a SQLite file in a temp folder, or a fresh database of the
 * file's throwaway PostgreSQL cluster (test/helpers/postgres.ts). The suite only sees the database location
 * string, as `openStore`, `createService` and the worker threads do.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { PgCluster } from './postgres'

export type Backend = 'sqlite' | 'postgres'

export interface DbLocation {
  backend: Backend
  /** A file path or a postgres:// URL: what the service calls `dbLocation`. */
  dbLocation: string
  cleanup(): Promise<void>
}

export type MakeDbLocation = () => Promise<DbLocation>

/** A new SQLite file (not created yet) in its own temp folder, removed afterwards. */
export function sqliteFile(prefix = 'arbiter-db-'): MakeDbLocation {
  return async () => {
    const dir = mkdtempSync(join(tmpdir(), prefix))
    return { backend: 'sqlite', dbLocation: join(dir, 'arbiter.db'), cleanup: async () => rmSync(dir, { recursive: true, force: true }) }
  }
}

/** A new, empty database of the cluster (dropped with the cluster). */
export function postgresDatabase(cluster: () => PgCluster): MakeDbLocation {
  return async () => ({ backend: 'postgres', dbLocation: await cluster().createDatabase(), cleanup: async () => {} })
}
