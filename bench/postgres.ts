/**
 * What the benches that run on PostgreSQL share (team, scale): which backends a run measures, a
 * durable throwaway cluster (or `ARBITER_PG_URL`), and switching its durability around a build.
 */
import pg from 'pg'
import { startPostgres, type PgCluster } from '../test/helpers/pg-cluster'

export type Backend = 'postgres' | 'sqlite'

/** The backends `envName` lists (comma-separated), else `fallback`. */
export function benchBackends(envName: string, fallback: string): Backend[] {
  const raw = process.env[envName] ?? fallback
  return raw.split(',').map((s) => {
    const b = s.trim()
    if (b !== 'postgres' && b !== 'sqlite') throw new Error(`${envName}: ${b} is not postgres or sqlite`)
    return b
  })
}

/** One statement as the server's superuser (or ARBITER_PG_URL's user). */
export async function adminQuery(url: string, sql: string): Promise<pg.QueryResult> {
  const c = new pg.Client({ connectionString: url })
  await c.connect()
  try {
    return await c.query(sql)
  } finally {
    await c.end()
  }
}

const DURABILITY = ['fsync', 'synchronous_commit', 'full_page_writes'] as const

/**
 * Our own cluster only: the build runs without durability (as the tests' cluster always does: an
 * 80 MB import is 4× slower with it, and the build is not what is measured), the team with the
 * server's defaults — every resolve waits for its commit to reach the disk.
 */
export async function setDurability(adminUrl: string, on: boolean): Promise<void> {
  for (const k of DURABILITY) await adminQuery(adminUrl, on ? `ALTER SYSTEM RESET ${k}` : `ALTER SYSTEM SET ${k} = off`)
  await adminQuery(adminUrl, 'SELECT pg_reload_conf()')
  const want = on ? 'on' : 'off'
  for (let i = 0; ; i++) {
    const shown = await Promise.all(DURABILITY.map(async (k) => (await adminQuery(adminUrl, `SHOW ${k}`)).rows[0][k] as string))
    if (shown.every((v) => v === want)) break
    if (i === 50) throw new Error(`the server did not switch ${DURABILITY.join(', ')} ${want} (${shown.join(', ')})`)
    await new Promise((r) => setTimeout(r, 100))
  }
  // What the build wrote reaches the disk before the clock starts, not during the run.
  if (on) await adminQuery(adminUrl, 'CHECKPOINT')
}

/** A durable cluster, or an error that says only what is missing (bench/index.ts prints it without a stack). */
export async function startBenchCluster(suite: string): Promise<PgCluster> {
  try {
    return await startPostgres({ durable: true })
  } catch (e) {
    throw Object.assign(new Error(`${suite}: cannot start PostgreSQL: ${(e as Error).message}`, { cause: e }), { setup: true })
  }
}
