/**
 * Applies the PostgreSQL migrations at open (the counterpart of sqlite/migrate.ts). Order: check
 * the list, then in ONE transaction holding an advisory lock (so two processes opening a new
 * database do not both migrate it): refuse a schema that is not Arbiter's, read what the database
 * recorded, plan (refusing edited / unknown / newer-than-code schemas), apply every pending
 * migration and record its sha256. PostgreSQL's DDL is transactional: a failure leaves the
 * database exactly as it was. There is no backup copy (no `VACUUM INTO`): back a server up with
 * its own tools (pg_dump), so `backupPath` is null.
 */
import { checkMigrationList, migrationLabel, migrationSha256, planMigrations, type AppliedMigration, type Migration } from '../migrations'
import { StoreError, type MigrationReport } from '../contract'
import type pg from 'pg'
import { PgSql } from './connection'

const CREATE_TABLE = `CREATE TABLE IF NOT EXISTS schema_migrations (
  version    integer PRIMARY KEY,
  name       text NOT NULL,
  sha256     text NOT NULL,
  applied_at text NOT NULL
)`

/** Any constant: the key of the advisory lock that serialises migrations of one database. */
const MIGRATION_LOCK = 727_100_001

type MigrateOptions = { location: string; readonly: boolean; now: () => Date }

async function hasTable(q: PgSql, name: string): Promise<boolean> {
  return (await q.get(`SELECT 1 AS one FROM pg_tables WHERE schemaname = current_schema() AND tablename = ?`, name)) !== undefined
}

async function readApplied(q: PgSql): Promise<AppliedMigration[]> {
  if (!(await hasTable(q, 'schema_migrations'))) return []
  return q.all<AppliedMigration>('SELECT version, name, sha256, applied_at AS "appliedAt" FROM schema_migrations ORDER BY version')
}

async function refuseForeign(q: PgSql, location: string): Promise<void> {
  if (await hasTable(q, 'schema_migrations')) return
  const other = await q.get<{ n: number }>(`SELECT count(*) AS n FROM pg_tables WHERE schemaname = current_schema()`)
  if (other !== undefined && other.n > 0) {
    throw new StoreError('bad_input', `${location} is not an Arbiter database (it has tables but no schema_migrations)`)
  }
}

/** Returns the schema version the database is at after opening, and what was done to it. */
export async function migratePostgres(
  client: pg.PoolClient,
  migrations: readonly Migration[],
  opts: MigrateOptions
): Promise<{ version: number; report: MigrationReport | null }> {
  checkMigrationList(migrations)
  const q = new PgSql(client)
  if (opts.readonly) {
    await refuseForeign(q, opts.location)
    const plan = planMigrations(await readApplied(q), migrations)
    if (plan.pending.length > 0) {
      throw new StoreError(
        'conflict',
        `the database is at schema version ${plan.from} and needs migrating to ${plan.to}; open it read-write first`,
        { databaseVersion: plan.from, codeVersion: plan.to }
      )
    }
    return { version: plan.from, report: null }
  }

  const progress: { current: Migration | null; from: number } = { current: null, from: 0 }
  await client.query('BEGIN') // READ COMMITTED: after the lock, each statement sees what others committed
  try {
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK])
    await refuseForeign(q, opts.location)
    const plan = planMigrations(await readApplied(q), migrations)
    progress.from = plan.from
    if (plan.pending.length === 0) {
      await client.query('COMMIT')
      return { version: plan.from, report: null }
    }
    await q.exec(CREATE_TABLE)
    const at = opts.now().toISOString()
    for (const m of plan.pending) {
      progress.current = m
      await q.exec(m.sql)
      await q.run('INSERT INTO schema_migrations (version, name, sha256, applied_at) VALUES (?, ?, ?, ?)', m.version, m.name, migrationSha256(m), at)
    }
    progress.current = null
    await client.query('COMMIT')
    return { version: plan.to, report: { from: plan.from, to: plan.to, applied: plan.pending.map((m) => m.version), backupPath: null } }
  } catch (e) {
    await client.query('ROLLBACK').catch(() => undefined)
    if (e instanceof StoreError) throw e
    const failed = progress.current
    const what = failed === null ? 'the migration transaction' : `migration ${migrationLabel(failed)}`
    throw new StoreError(
      'internal',
      `${what} failed and was rolled back; the database is unchanged at version ${progress.from}: ${e instanceof Error ? e.message : String(e)}`,
      { version: failed === null ? null : failed.version, databaseVersion: progress.from }
    )
  }
}
