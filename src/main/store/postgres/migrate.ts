/**
 * Applies the PostgreSQL migrations at open (the counterpart of sqlite/migrate.ts). Order: check
 * the list, then in ONE transaction holding an advisory lock (so two processes opening a new
 * database do not both migrate it): refuse a schema that is not Arbiter's, read what the database
 * recorded, plan (refusing edited / unknown / newer-than-code schemas), apply every pending
 * migration and record its sha256. PostgreSQL's DDL is transactional: a failure leaves the
 * database exactly as it was. There is no backup copy (no `VACUUM INTO`): back a server up with
 * its own tools (pg_dump), so `backupPath` is null.
 */
import {
  checkMigrationList, migrationFailed, migrationSha256, needsMigrating, notArbiter, planMigrations, RECORD_MIGRATION, SCHEMA_MIGRATIONS, type AppliedMigration, type Migration
} from '../migrations'
import { StoreError, type MigrationReport } from '../contract'
import type pg from 'pg'
import { PgSql } from './connection'

/** Any constant: the key of the advisory lock that serialises migrations of one database. */
const MIGRATION_LOCK = 727_100_001

type MigrateOptions = { dbLocation: string; readonly: boolean; now: () => Date }

async function hasTable(q: PgSql, name: string): Promise<boolean> {
  return (await q.get(`SELECT 1 AS one FROM pg_tables WHERE schemaname = current_schema() AND tablename = ?`, name)) !== undefined
}

async function readApplied(q: PgSql): Promise<AppliedMigration[]> {
  if (!(await hasTable(q, 'schema_migrations'))) return []
  return q.all<AppliedMigration>('SELECT version, name, sha256, applied_at AS "appliedAt" FROM schema_migrations ORDER BY version')
}

async function refuseForeign(q: PgSql, dbLocation: string): Promise<void> {
  if (await hasTable(q, 'schema_migrations')) return
  const other = await q.get<{ n: number }>(`SELECT count(*) AS n FROM pg_tables WHERE schemaname = current_schema()`)
  if (other !== undefined && other.n > 0) throw notArbiter(dbLocation)
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
    await refuseForeign(q, opts.dbLocation)
    const plan = planMigrations(await readApplied(q), migrations)
    if (plan.pending.length > 0) throw needsMigrating(plan)
    return { version: plan.from, report: null }
  }

  const progress: { current: Migration | null; from: number } = { current: null, from: 0 }
  await client.query('BEGIN') // READ COMMITTED: after the lock, each statement sees what others committed
  try {
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK])
    await refuseForeign(q, opts.dbLocation)
    const plan = planMigrations(await readApplied(q), migrations)
    progress.from = plan.from
    if (plan.pending.length === 0) {
      await client.query('COMMIT')
      return { version: plan.from, report: null }
    }
    await q.exec(SCHEMA_MIGRATIONS)
    const at = opts.now().toISOString()
    for (const m of plan.pending) {
      progress.current = m
      await q.exec(m.sql)
      await q.run(RECORD_MIGRATION, m.version, m.name, migrationSha256(m), at)
    }
    progress.current = null
    await client.query('COMMIT')
    return { version: plan.to, report: { from: plan.from, to: plan.to, applied: plan.pending.map((m) => m.version), backupPath: null } }
  } catch (e) {
    await client.query('ROLLBACK').catch(() => undefined)
    if (e instanceof StoreError) throw e
    throw migrationFailed(e, progress.current, progress.from, null)
  }
}
