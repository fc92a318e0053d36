import Database from 'better-sqlite3'
import { createHash } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach } from 'vitest'
import type { TaskInput } from '../../../src/main/store'

/** A temp dir per test, removed afterwards; `dbLocation()` names a database file inside it. */
export function useTempDir(): { dir: () => string; dbLocation: (name?: string) => string } {
  const dirs: string[] = []
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
  })
  const dir = (): string => {
    const d = mkdtempSync(join(tmpdir(), 'arbiter-store-'))
    dirs.push(d)
    return d
  }
  let current: string | null = null
  afterEach(() => {
    current = null
  })
  return {
    dir,
    dbLocation: (name = 'arbiter.db') => {
      if (current === null) current = dir()
      return join(current, name)
    }
  }
}

export function fileSha256(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex')
}

/** A second, raw connection: what another process (or an attacker with sqlite3) could do. */
export function rawDb(path: string, readonly = false): Database.Database {
  const db = new Database(path, { readonly, fileMustExist: true })
  db.pragma('foreign_keys = ON')
  return db
}

/**
 * Publishes tasks into a database still at schema 1 or 2 (before migration 0003 packed the moves
 * into the task row), with the raw SQL of that schema: the current store code writes the new
 * shape, so an old file has to be written the old way to test its migration.
 */
export function writeLegacyTasks(path: string, tasks: TaskInput[], importId = 'legacy-import'): void {
  const db = rawDb(path)
  try {
    const now = '2026-01-01T00:00:00.000Z'
    db.transaction(() => {
      db.prepare(
        `INSERT INTO imports (id, file_name, sha256, kind, state, created_at, updated_at, published_at, counts, created_by, session_id, shell)
         VALUES (?, 'legacy.trace.jsonl', ?, 'traces', 'published', ?, ?, ?, ?, 'ana', 's', 'cli')`
      ).run(importId, createHash('sha256').update(importId).digest('hex'), now, now, now, JSON.stringify({ tasks: tasks.length, skipped: 0, moves: tasks.reduce((n, t) => n + t.moves.length, 0), seats: 0, labels: 0 }))
      const task = db.prepare(
        `INSERT INTO tasks (id, import_id, question, candidates, gold, grp, raw, content_sha256, version, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0, ?)`
      )
      const move = db.prepare(
        `INSERT INTO moves (task_id, idx, id, round, seat, force, answer, target, confidence, text, raw) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
      )
      for (const t of tasks) {
        task.run(t.id, importId, t.question, JSON.stringify(t.candidates), t.gold, t.group, JSON.stringify(t.raw), t.contentSha256, now)
        t.moves.forEach((m, i) =>
          move.run(t.id, i, m.id, m.round, m.seat, m.force, m.answer, m.target, m.confidence, m.text, m.raw === null ? null : JSON.stringify(m.raw))
        )
      }
    })()
  } finally {
    db.close()
  }
}
