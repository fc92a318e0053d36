/**
 * Applies the SQLite migrations at open. Order: check the list, read what the file recorded,
 * plan (refusing edited / unknown / newer-than-code schemas), back up an existing database with
 * `VACUUM INTO`, then apply every pending migration in ONE immediate transaction. A failure
 * rolls the whole transaction back, so the file is left exactly as it was.
 */
import { existsSync } from 'node:fs'
import {
  checkMigrationList, migrationFailed, migrationSha256, needsMigrating, notArbiter, planMigrations, RECORD_MIGRATION, SCHEMA_MIGRATIONS, type AppliedMigration, type Migration
} from '../migrations'
import { StoreError, type MigrationReport } from '../contract'
import type { Sql } from './connection'
import { createPrivateFile } from './private-file'

type MigrateOptions = { path: string; readonly: boolean; now: () => Date }

function hasTable(q: Sql, name: string): boolean {
  return q.get(`SELECT 1 AS one FROM sqlite_master WHERE type = 'table' AND name = ?`, name) !== undefined
}

function readApplied(q: Sql): AppliedMigration[] {
  if (!hasTable(q, 'schema_migrations')) return []
  return q.all<AppliedMigration>(
    'SELECT version, name, sha256, applied_at AS appliedAt FROM schema_migrations ORDER BY version'
  )
}

/** `<path>.bak-v<from>-<UTC stamp>`; the stamp has no ':' so the name is valid on Windows too. */
export function backupPathFor(path: string, from: number, at: Date): string {
  const stamp = at.toISOString().replace(/[-:]/g, '').replace('.', '')
  let candidate = `${path}.bak-v${from}-${stamp}`
  for (let n = 2; existsSync(candidate); n++) candidate = `${path}.bak-v${from}-${stamp}-${n}`
  return candidate
}

/** Returns the schema version the database is at after opening, and what was done to it. */
export function migrateSqlite(
  q: Sql,
  migrations: readonly Migration[],
  opts: MigrateOptions
): { version: number; report: MigrationReport | null } {
  checkMigrationList(migrations)
  if (!hasTable(q, 'schema_migrations')) {
    const other = q.get<{ n: number }>(
      `SELECT count(*) AS n FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'`
    )
    if (other !== undefined && other.n > 0) throw notArbiter(opts.path)
  }
  const plan = planMigrations(readApplied(q), migrations)
  if (plan.pending.length === 0) return { version: plan.from, report: null }
  if (opts.readonly) throw needsMigrating(plan)

  // Existing data is copied before anything is changed (docs/architecture.md: migrations take a backup).
  let backupPath: string | null = null
  if (plan.from > 0) {
    backupPath = backupPathFor(opts.path, plan.from, opts.now())
    try {
      createPrivateFile(backupPath)
      q.db.prepare('VACUUM INTO ?').run(backupPath)
    } catch (e) {
      throw new StoreError('internal', `could not back up the database to ${backupPath} before migrating: ${String(e)}`)
    }
  }

  // An object, not a `let`: TypeScript does not see assignments made inside the callback.
  const progress: { current: Migration | null } = { current: null }
  try {
    const applied = q.write(() => {
      // Re-plan inside the lock: another process may have migrated since we looked.
      const inside = planMigrations(readApplied(q), migrations)
      // Table rebuilds in later migrations may break references transiently; checked at commit.
      q.db.pragma('defer_foreign_keys = ON')
      q.db.exec(SCHEMA_MIGRATIONS)
      const at = opts.now().toISOString()
      for (const m of inside.pending) {
        progress.current = m
        q.db.exec(m.sql)
        m.data?.({ all: (sql, ...params) => q.all(sql, ...params), exec: (sql) => q.db.exec(sql), run: (sql, ...params) => q.run(sql, ...params) })
        q.run(RECORD_MIGRATION, m.version, m.name, migrationSha256(m), at)
      }
      progress.current = null
      return inside.pending.map((m) => m.version)
    })
    return { version: plan.to, report: { from: plan.from, to: plan.to, applied, backupPath } }
  } catch (e) {
    if (e instanceof StoreError) throw e
    throw migrationFailed(e, progress.current, plan.from, backupPath)
  }
}
