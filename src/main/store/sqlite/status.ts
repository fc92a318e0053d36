/**
 * Read-only status: counts over visible data, integrity checks, and the data version a watcher
 * polls to notice other processes' commits.
 */
import type { IntegrityReport, StoreCounts } from '../contract'
import type { Sql } from './connection'
import { decidedCounts } from '../ops/decided-counts'
import { latestDecidedFitId } from '../ops/fits'
import { decisionsTable, decisionTableProblems } from '../fit-decisions'
import { runPlan } from './plan-driver'
import { SQLITE } from './dialect'

const PUBLISHED = `JOIN imports i ON i.id = x.import_id AND i.state = 'published'`

export function counts(q: Sql): StoreCounts {
  const n = (sql: string, ...params: unknown[]): number => q.get<{ n: number }>(sql, ...params)?.n ?? 0
  const live = `l.label IS NOT NULL AND NOT EXISTS (SELECT 1 FROM labels s WHERE s.supersedes = l.id)`
  const fitId = runPlan(q, latestDecidedFitId(SQLITE))
  // A live label makes a task `human`: it leaves the acted / deferred counts, as it leaves the queue.
  const decisions = (where: string): number =>
    fitId === null
      ? 0
      : n(
          `SELECT count(*) AS n FROM ${decisionsTable(fitId)} d WHERE ${where}
           AND NOT EXISTS (SELECT 1 FROM labels l WHERE l.task_id = d.task_id AND ${live})`
        )
  const stored = fitId === null ? null : runPlan(q, decidedCounts(fitId))
  // A published import's counts are final and its tasks can never be deleted: summing the task
  // imports (a label import counts the tasks it labeled) is exact, and flat however many tasks they hold.
  const imported = (what: 'tasks' | 'moves') =>
    n(`SELECT coalesce(sum(json_extract(i.counts, '$.${what}')), 0) AS n FROM imports i WHERE i.state = 'published' AND i.kind <> 'labels'`)
  return {
    tasks: imported('tasks'),
    seats: n(`SELECT count(DISTINCT x.id) AS n FROM seats x ${PUBLISHED}`),
    moves: imported('moves'),
    // Labels can only be written on visible tasks, and a published import stays published.
    labels: n(`SELECT count(*) AS n FROM labels l WHERE ${live}`),
    labeledTasks: n(`SELECT count(DISTINCT l.task_id) AS n FROM labels l WHERE ${live}`),
    deferred: stored?.deferred ?? decisions(`decision = 'defer'`),
    acted: stored?.acted ?? decisions(`decision = 'act'`),
    spotCheck: stored?.spotCheck ?? decisions('spot_check = 1'),
    fits: n('SELECT count(*) AS n FROM fits')
  }
}

export function integrityCheck(q: Sql): IntegrityReport {
  const messages: string[] = []
  for (const r of q.db.pragma('integrity_check') as { integrity_check: string }[]) {
    if (r.integrity_check !== 'ok') messages.push(r.integrity_check)
  }
  const fk = q.db.pragma('foreign_key_check') as { table: string; rowid: number | null; parent: string }[]
  for (const r of fk) messages.push(`foreign key violation: a row of ${r.table} references a missing ${r.parent} row`)
  messages.push(...fitTableProblems(q))
  return { ok: messages.length === 0, messages }
}

/** Each fit against its decisions table (they are tied by name, not by a foreign key). */
function fitTableProblems(q: Sql): string[] {
  const rows = new Map<string, number>()
  for (const { name } of q.all<{ name: string }>(`SELECT name FROM sqlite_master WHERE type = 'table' AND name GLOB 'decisions_*' ORDER BY name`)) {
    rows.set(name, q.get<{ n: number }>(`SELECT count(*) AS n FROM ${name}`)?.n ?? 0)
  }
  const fits = q.all<{ id: string; decided: number; count: number }>('SELECT id, decided_at IS NOT NULL AS decided, decision_count AS count FROM fits ORDER BY created_at, id')
  return decisionTableProblems(rows, fits.map((f) => ({ id: f.id, decided: f.decided === 1, count: f.count })))
}

export function dataVersion(q: Sql): number {
  return Number(q.db.pragma('data_version', { simple: true }))
}

export function schemaVersion(q: Sql): number {
  return q.get<{ v: number | null }>('SELECT max(version) AS v FROM schema_migrations')?.v ?? 0
}
