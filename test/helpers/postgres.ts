/**
 * The store tests' PostgreSQL server (pg-cluster.ts) as vitest hooks: one throwaway cluster per
 * test file, or ARBITER_PG_URL's server. Suites that use it are wrapped in
 * `describeWith(POSTGRES, …)`: skipped with the reason when neither is available, failing under CI.
 */
import { afterAll, beforeAll } from 'vitest'
import { postgresMissing, startPostgres, type PgCluster } from './pg-cluster'
import type { Missing } from './prerequisites'

export { findPostgresBin, postgresMissing, startPostgres, type PgCluster } from './pg-cluster'

/** Why this machine cannot run the PostgreSQL suites, or null. */
export const POSTGRES: Missing = postgresMissing()

/**
 * One cluster per test file: started before its tests, stopped and removed after them. Without
 * PostgreSQL nothing is started: the suites that would use it are skipped (or fail, under CI).
 */
export function usePostgres(): () => PgCluster {
  let cluster: PgCluster | null = null
  beforeAll(async () => {
    if (POSTGRES === null) cluster = await startPostgres()
  }, 60_000)
  afterAll(async () => {
    await cluster?.stop()
    cluster = null
  }, 60_000)
  return () => {
    if (cluster === null) throw new Error(POSTGRES ?? 'no PostgreSQL cluster (used outside a test)')
    return cluster
  }
}
