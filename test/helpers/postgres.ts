/**
 * The store tests' PostgreSQL server (pg-cluster.ts) as vitest hooks: one throwaway cluster per
 * test file, or ARBITER_PG_URL's server.
 */
import { afterAll, beforeAll } from 'vitest'
import { startPostgres, type PgCluster } from './pg-cluster'

export { findPostgresBin, startPostgres, type PgCluster } from './pg-cluster'

/** One cluster per test file: started before its tests, stopped and removed after them. */
export function usePostgres(): () => PgCluster {
  let cluster: PgCluster | null = null
  beforeAll(async () => {
    cluster = await startPostgres()
  }, 60_000)
  afterAll(async () => {
    await cluster?.stop()
    cluster = null
  }, 60_000)
  return () => {
    if (cluster === null) throw new Error('no PostgreSQL cluster (used outside a test)')
    return cluster
  }
}
