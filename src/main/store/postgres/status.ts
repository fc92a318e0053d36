/**
 * Read-only status: counts over visible data, integrity checks, and the data version a watcher
 * polls to notice other processes' commits.
 */
import { decisionsTable, decisionTableProblems } from '../fit-decisions'
import type { IntegrityReport, StoreCounts } from '../contract'
import type { PgSql } from './connection'
import { decidedCounts } from '../ops/decided-counts'
import { latestDecidedFitId } from '../ops/fits'
import { runPlan } from './plan-driver'
import { POSTGRES } from './dialect'

const PUBLISHED = `JOIN imports i ON i.id = x.import_id AND i.state = 'published'`

export async function counts(q: PgSql): Promise<StoreCounts> {
  const n = async (sql: string, ...params: unknown[]): Promise<number> => (await q.get<{ n: number }>(sql, ...params))?.n ?? 0
  const live = `l.label IS NOT NULL AND NOT EXISTS (SELECT 1 FROM labels s WHERE s.supersedes = l.id)`
  const fitId = await runPlan(q, latestDecidedFitId(POSTGRES))
  // A live label makes a task `human`: it leaves the acted / deferred counts, as it leaves the queue.
  const decisions = (where: string): Promise<number> =>
    fitId === null
      ? Promise.resolve(0)
      : n(
          `SELECT count(*) AS n FROM ${decisionsTable(fitId)} d WHERE ${where}
           AND NOT EXISTS (SELECT 1 FROM labels l WHERE l.task_id = d.task_id AND ${live})`
        )
  const stored = fitId === null ? null : await runPlan(q, decidedCounts(fitId))
  // A published import's counts are final and its tasks can never be deleted (see sqlite/status.ts).
  const imported = (what: 'tasks' | 'moves') =>
    n(`SELECT coalesce(sum((i.counts ->> '${what}')::bigint), 0) AS n FROM imports i WHERE i.state = 'published' AND i.kind <> 'labels'`)
  return {
    tasks: await imported('tasks'),
    seats: await n(`SELECT count(DISTINCT x.id) AS n FROM seats x ${PUBLISHED}`),
    moves: await imported('moves'),
    labels: await n(`SELECT count(*) AS n FROM labels l WHERE ${live}`),
    labeledTasks: await n(`SELECT count(DISTINCT l.task_id) AS n FROM labels l WHERE ${live}`),
    deferred: stored?.deferred ?? (await decisions(`decision = 'defer'`)),
    acted: stored?.acted ?? (await decisions(`decision = 'act'`)),
    spotCheck: stored?.spotCheck ?? (await decisions('spot_check')),
    fits: await n('SELECT count(*) AS n FROM fits')
  }
}

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
  ['reservations', 'tasks', 'SELECT count(*) AS n FROM reservations c WHERE NOT EXISTS (SELECT 1 FROM tasks p WHERE p.id = c.task_id)']
]

export async function integrityCheck(q: PgSql): Promise<IntegrityReport> {
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
