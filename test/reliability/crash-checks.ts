/**
 * What must hold of a database after any failure — a kill, a full disk, a refused write
 * (docs/architecture.md, "Data that must never be lost"): it opens the way the app's next launch opens it,
 * passes `PRAGMA integrity_check` and `foreign_key_check`, holds every label it ever held, shows
 * no partial import and no half-saved decisions. Checked with the store (what a reviewer sees)
 * and with raw SQL on a read-only connection (what is really in the file).
 */
import { decisionsTable } from '../../src/main/store/fit-decisions'
import Database from 'better-sqlite3'
import { readdirSync } from 'node:fs'
import { basename, dirname } from 'node:path'
import { expect } from 'vitest'
import { openStore } from '../../src/main/store'

export type Snapshot = {
  /** Tasks a reviewer sees (rows of published imports). */
  visibleTasks: number
  labelIds: Set<string>
  /** Fits whose decisions are saved. */
  decidedFits: Set<string>
}

/** The invariants; `mustHave` are label ids acknowledged or seen earlier. Returns what the database holds now. */
export async function verifyDatabase(path: string, mustHave: Iterable<string>): Promise<Snapshot> {
  const store = await openStore(path)
  let visibleTasks: number
  try {
    const integrity = await store.integrityCheck()
    expect(integrity.messages).toEqual([])
    expect(integrity.ok).toBe(true)
    visibleTasks = (await store.counts()).tasks
  } finally {
    await store.close()
  }
  const db = new Database(path, { readonly: true, fileMustExist: true })
  try {
    const labelIds = new Set(db.prepare('SELECT id FROM labels').pluck().all() as string[])
    const missing = [...mustHave].filter((id) => !labelIds.has(id))
    expect(missing, 'labels acknowledged or seen before the failure').toEqual([])
    // A published import holds exactly the tasks it counted; nothing of a staged one is visible.
    const partial = db
      .prepare(
        `SELECT i.id, json_extract(i.counts, '$.tasks') AS want, (SELECT count(*) FROM tasks t WHERE t.import_id = i.id) AS have
         FROM imports i WHERE i.state = 'published' AND i.kind IN ('traces', 'crowd-csv')`
      )
      .all() as { id: string; want: number; have: number }[]
    expect(partial.filter((p) => p.want !== p.have)).toEqual([])
    const published = db.prepare(`SELECT count(*) FROM tasks t JOIN imports i ON i.id = t.import_id WHERE i.state = 'published'`).pluck().get() as number
    expect(visibleTasks).toBe(published)
    // A fit's decisions are saved in pages, each raising the fit's count in its own transaction, and
    // only a finished (decided) fit is ever shown: a kill leaves every fit's count equal to its rows.
    const fits = (db.prepare(`SELECT f.id, f.decided_at AS decidedAt, f.decision_count AS want FROM fits f`).all() as { id: string; decidedAt: string | null; want: number }[]).map((f) => {
      // A fit's table appears with its first page, in that page's transaction.
      const table = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name = ?`).pluck().get(decisionsTable(f.id))
      return { ...f, have: table === undefined ? 0 : (db.prepare(`SELECT count(*) FROM ${decisionsTable(f.id)}`).pluck().get() as number) }
    })
    expect(fits.filter((f) => f.have !== f.want)).toEqual([])
    return { visibleTasks, labelIds, decidedFits: new Set(fits.filter((f) => f.decidedAt !== null).map((f) => f.id)) }
  } finally {
    db.close()
  }
}

/**
 * The sweep every open does, with the store's default options: a dead process's staged import
 * (its lock is free) is deleted at once, so afterwards no staged or abandoned rows — nor lock
 * files — remain, and a retry can import the file.
 */
export async function sweepDeadImports(path: string): Promise<void> {
  const store = await openStore(path)
  await store.close()
  const db = new Database(path, { readonly: true, fileMustExist: true })
  try {
    expect(db.prepare(`SELECT count(*) FROM imports WHERE state <> 'published'`).pluck().get()).toBe(0)
    expect(db.prepare(`SELECT count(*) FROM tasks t JOIN imports i ON i.id = t.import_id WHERE i.state <> 'published'`).pluck().get()).toBe(0)
  } finally {
    db.close()
  }
  expect(importLockFiles(path)).toEqual([])
}

/** The import lock files next to a database (`<db>.import-<id>.lock`, one per running import). */
export function importLockFiles(path: string): string[] {
  return readdirSync(dirname(path)).filter((f) => f.startsWith(`${basename(path)}.import-`))
}

/** Rows of one child session: labels it wrote, and how many audit rows name each of them. */
export function sessionLabels(path: string, sessionId: string): { id: string; audits: number }[] {
  const db = new Database(path, { readonly: true, fileMustExist: true })
  try {
    return db
      .prepare(
        `SELECT l.id, (SELECT count(*) FROM audit_log a WHERE a.session_id = l.session_id AND json_extract(a.details, '$.labelId') = l.id) AS audits
         FROM labels l WHERE l.session_id = ?`
      )
      .all(sessionId) as { id: string; audits: number }[]
  } finally {
    db.close()
  }
}

/** Published tasks whose id starts with `prefix` (one generated trace file's tasks). */
export function publishedWithPrefix(path: string, prefix: string): number {
  const db = new Database(path, { readonly: true, fileMustExist: true })
  try {
    return db
      .prepare(`SELECT count(*) FROM tasks t JOIN imports i ON i.id = t.import_id WHERE i.state = 'published' AND t.id >= ? AND t.id < ?`)
      .pluck()
      .get(`${prefix}-`, `${prefix}.`) as number
  } finally {
    db.close()
  }
}
