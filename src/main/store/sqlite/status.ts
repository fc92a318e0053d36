/**
 * What only this backend can say about itself: its integrity, its schema version, and the data
 * version a watcher polls to notice other processes' commits (the counts: ../ops/status.ts).
 */
import type { IntegrityCheckResult } from '../contract'
import { decisionTableProblems } from '../fit-decisions'
import type { Sql } from './connection'

export function integrityCheck(q: Sql): IntegrityCheckResult {
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
