/**
 * What only this backend can say about itself: its integrity, its schema version, and the data
 * version a watcher polls to notice other processes' commits (the counts: ../ops/status.ts).
 */
import type { IntegrityCheckResult } from '../contract'
import { decisionTableProblems } from '../fit-decisions'
import type { PgSql } from './connection'

/**
 * PostgreSQL checks its own pages and enforces foreign keys itself (they cannot be switched off
 * per connection as in SQLite), so this checks that the server answers and that no row was left
 * orphaned by a trigger-disabling or replica-mode session: the same "foreign key violation"
 * messages SQLite's foreign_key_check gives.
 */
const ORPHANS: [table: string, parent: string, sql: string][] = [
  ['tasks', 'imports', 'SELECT count(*) AS n FROM tasks c WHERE NOT EXISTS (SELECT 1 FROM imports p WHERE p.id = c.import_id)'],
  ['seats', 'imports', 'SELECT count(*) AS n FROM seats c WHERE NOT EXISTS (SELECT 1 FROM imports p WHERE p.id = c.import_id)'],
  ['task_moves', 'tasks', 'SELECT count(*) AS n FROM task_moves c WHERE NOT EXISTS (SELECT 1 FROM tasks p WHERE p.id = c.task_id)'],
  ['task_tallies', 'tasks', 'SELECT count(*) AS n FROM task_tallies c WHERE NOT EXISTS (SELECT 1 FROM tasks p WHERE p.id = c.task_id)'],
  ['labels', 'tasks', 'SELECT count(*) AS n FROM labels c WHERE NOT EXISTS (SELECT 1 FROM tasks p WHERE p.id = c.task_id)'],
  ['labels', 'labels', 'SELECT count(*) AS n FROM labels c WHERE c.supersedes IS NOT NULL AND NOT EXISTS (SELECT 1 FROM labels p WHERE p.id = c.supersedes)'],
  ['reservations', 'tasks', 'SELECT count(*) AS n FROM reservations c WHERE NOT EXISTS (SELECT 1 FROM tasks p WHERE p.id = c.task_id)'],
  ['draws', 'tasks', 'SELECT count(*) AS n FROM draws c WHERE NOT EXISTS (SELECT 1 FROM tasks p WHERE p.id = c.task_id)']
]

export async function integrityCheck(q: PgSql): Promise<IntegrityCheckResult> {
  const messages: string[] = []
  const one = await q.get<{ one: number }>('SELECT 1 AS one')
  if (one?.one !== 1) messages.push('the server did not answer SELECT 1')
  for (const [table, parent, sql] of ORPHANS) {
    const n = (await q.get<{ n: number }>(sql))?.n ?? 0
    if (n > 0) messages.push(`foreign key violation: ${n} row(s) of ${table} reference a missing ${parent} row`)
  }
  messages.push(...(await fitTableProblems(q)))
  return { ok: messages.length === 0, messages }
}

/** Each fit against its decisions table (they are tied by name, not by a foreign key). */
async function fitTableProblems(q: PgSql): Promise<string[]> {
  const rows = new Map<string, number>()
  const tables = await q.all<{ name: string }>(`SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema() AND tablename LIKE 'decisions\\_%' ORDER BY tablename`)
  for (const { name } of tables) rows.set(name, Number((await q.get<{ n: number }>(`SELECT count(*) AS n FROM ${name}`))?.n ?? 0))
  const fits = await q.all<{ id: string; decided: boolean; count: number }>('SELECT id, decided_at IS NOT NULL AS decided, decision_count AS count FROM fits ORDER BY created_at, id')
  return decisionTableProblems(rows, fits.map((f) => ({ id: f.id, decided: f.decided, count: Number(f.count) })))
}

/** The sum of the other stores' write counters (migration 0001, `data_versions`). */
export async function dataVersion(q: PgSql, writer: string): Promise<number> {
  return (await q.get<{ n: number }>('SELECT coalesce(sum(n), 0) AS n FROM data_versions WHERE writer <> ?', writer))?.n ?? 0
}

/** Called inside every write transaction of this store. */
export async function bumpDataVersion(q: PgSql, writer: string): Promise<void> {
  await q.run('INSERT INTO data_versions (writer, n) VALUES (?, 1) ON CONFLICT (writer) DO UPDATE SET n = data_versions.n + 1', writer)
}

export async function schemaVersion(q: PgSql): Promise<number> {
  return (await q.get<{ v: number | null }>('SELECT max(version) AS v FROM schema_migrations'))?.v ?? 0
}
