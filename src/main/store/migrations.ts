/**
 * Migration bookkeeping shared by every backend: the file shape, the sha256 that detects an
 * applied migration edited afterwards, and the plan (what is pending, what must be refused).
 * Applying SQL is the backend's job (sqlite/migrate.ts), since each backend has its own dialect
 * and its own list of migrations.
 */
import { createHash } from 'node:crypto'
import { StoreError } from './contract'

/** One numbered file `NNNN-kebab.ts`. Never edit one that shipped: add the next number instead. */
export type Migration = {
  version: number
  name: string
  sql: string
  /**
   * A data step SQL cannot say in this dialect (SQLite has no dynamic DDL), run right after `sql`
   * in the same transaction. It is part of the shipped file like `sql` (the recorded sha256 covers
   * `sql` only, so it must never change either).
   */
  data?: (db: MigrationDb) => void
}

/** What a data step may do: read rows and run statements, inside the migration's transaction. */
export type MigrationDb = { all<T>(sql: string, ...params: unknown[]): T[]; exec(sql: string): void; run(sql: string, ...params: unknown[]): number }

/** A row of `schema_migrations`. */
export type AppliedMigration = { version: number; name: string; sha256: string; appliedAt: string }

export type MigrationPlan = {
  /** Highest applied version (0 for an empty database). */
  from: number
  /** Highest version the code knows. */
  to: number
  pending: Migration[]
}

const NAME_RE = /^[a-z0-9]+(-[a-z0-9]+)*$/

export function migrationSha256(m: Migration): string {
  return createHash('sha256').update(m.sql, 'utf8').digest('hex')
}

/** `0007 "add-foo"`: how messages name a migration (matches its file name). */
export function migrationLabel(m: { version: number; name: string }): string {
  return `${String(m.version).padStart(4, '0')} "${m.name}"`
}

/** A broken list is a bug in the build, hence `internal`. Versions must strictly increase. */
export function checkMigrationList(list: readonly Migration[]): void {
  let prev = 0
  for (const m of list) {
    if (!Number.isSafeInteger(m.version) || m.version < 1) {
      throw new StoreError('internal', `migration version ${String(m.version)} is not a positive integer`)
    }
    if (m.version <= prev) {
      throw new StoreError('internal', `migration versions must strictly increase: ${m.version} follows ${prev}`, {
        version: m.version
      })
    }
    if (!NAME_RE.test(m.name)) {
      throw new StoreError('internal', `migration ${m.version} has a name that is not kebab-case: "${m.name}"`)
    }
    if (typeof m.sql !== 'string' || m.sql.trim() === '') {
      throw new StoreError('internal', `migration ${migrationLabel(m)} has no SQL`)
    }
    prev = m.version
  }
}

/**
 * Compares what the database recorded with what the code ships. Refuses (StoreError, naming the
 * version) a database newer than the code, an applied migration the code does not know, an
 * applied migration whose SQL changed, and a pending migration older than an applied one.
 */
export function planMigrations(applied: readonly AppliedMigration[], code: readonly Migration[]): MigrationPlan {
  checkMigrationList(code)
  const byVersion = new Map(code.map((m) => [m.version, m]))
  const to = code.length > 0 ? code[code.length - 1].version : 0
  const from = applied.reduce((max, a) => Math.max(max, a.version), 0)

  if (from > to) {
    throw new StoreError(
      'conflict',
      `the database schema is at version ${from}, newer than this build of Arbiter knows (latest ${to}); ` +
        'upgrade Arbiter to open it',
      { databaseVersion: from, codeVersion: to }
    )
  }
  for (const a of applied) {
    const m = byVersion.get(a.version)
    if (m === undefined) {
      throw new StoreError('conflict', `the database records migration ${migrationLabel(a)}, which this build does not have`, {
        version: a.version
      })
    }
    const sha = migrationSha256(m)
    if (sha !== a.sha256) {
      throw new StoreError(
        'conflict',
        `migration ${migrationLabel(m)} was edited after it was applied to this database ` +
          `(recorded sha256 ${a.sha256}, code has ${sha}); refusing to open`,
        { version: a.version, recorded: a.sha256, code: sha }
      )
    }
  }
  const done = new Set(applied.map((a) => a.version))
  const pending = code.filter((m) => !done.has(m.version))
  const early = pending.find((m) => m.version < from)
  if (early !== undefined) {
    throw new StoreError(
      'conflict',
      `migration ${migrationLabel(early)} is missing from a database already at version ${from}; ` +
        'migrations must be added with a higher number',
      { version: early.version }
    )
  }
  return { from, to, pending }
}

/** The table each backend records its applied migrations in (the same columns on both). */
export const SCHEMA_MIGRATIONS = `CREATE TABLE IF NOT EXISTS schema_migrations (
  version    INTEGER PRIMARY KEY,
  name       TEXT NOT NULL,
  sha256     TEXT NOT NULL,
  applied_at TEXT NOT NULL
)`

export const RECORD_MIGRATION = 'INSERT INTO schema_migrations (version, name, sha256, applied_at) VALUES (?, ?, ?, ?)'

/** A database with tables but no migration record: someone else's, never migrated into ours. */
export const notArbiter = (dbLocation: string): StoreError =>
  new StoreError('bad_input', `${dbLocation} is not an Arbiter database (it has tables but no schema_migrations)`)

/** A read-only open of a database that has migrations pending. */
export const needsMigrating = (plan: MigrationPlan): StoreError =>
  new StoreError('conflict', `the database is at schema version ${plan.from} and needs migrating to ${plan.to}; open it read-write first`, {
    databaseVersion: plan.from, codeVersion: plan.to
  })

/** A migration transaction that failed and was rolled back: which migration, and the version the database stays at. */
export function migrationFailed(e: unknown, failed: Migration | null, from: number, backupPath: string | null): StoreError {
  const what = failed === null ? 'the migration transaction' : `migration ${migrationLabel(failed)}`
  return new StoreError(
    'internal',
    `${what} failed and was rolled back; the database is unchanged at version ${from}` +
      `${backupPath === null ? '' : ` (backup: ${backupPath})`}: ${e instanceof Error ? e.message : String(e)}`,
    { version: failed === null ? null : failed.version, databaseVersion: from, ...(backupPath === null ? {} : { backupPath }) }
  )
}
