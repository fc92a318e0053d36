/**
 * SQLite's import lock file (sqlite/import-lock.ts) under a kill: the lock is written with one
 * page, so a kill cannot tear it; and a lock file torn anyway (an earlier Arbiter wrote two pages,
 * and a SIGKILL between them left a file SQLite calls malformed, on which every later open of the
 * database failed — seen in import-retry-kill's CI run) is started afresh by the next sweep. And a
 * new import whose first id's lock a passing sweep holds for a moment takes another id.
 */
import Database from 'better-sqlite3'
import type * as crypto from 'node:crypto'
import { randomUUID } from 'node:crypto'
import { readdirSync, statSync, truncateSync, writeFileSync } from 'node:fs'
import { basename, dirname } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import { openSqliteStore } from '../../../src/main/store'
import { SqliteImportLocks } from '../../../src/main/store/sqlite/import-lock'
import { ANA, importTasks, makeTask, sha } from './fixtures'
import { rawDb, useTempDir } from './sqlite-helpers'

// The store's ids, with a way to choose the next one (the id a new import's lock is taken for).
vi.mock('node:crypto', async (importOriginal) => {
  const real = await importOriginal<typeof crypto>()
  return { ...real, randomUUID: vi.fn(real.randomUUID) }
})

const lockPath = (db: string, importId: string) => `${db}.import-${importId}.lock`

/** What a kill between the two page writes of the earlier lock left: page 1 names a table on page 2, which is not there. */
function writeTornLock(path: string): void {
  const db = new Database(path)
  db.pragma('journal_mode = MEMORY')
  db.exec(`CREATE TABLE owner (pid INTEGER, at TEXT); INSERT INTO owner VALUES (1, 'then')`)
  db.close()
  expect(statSync(path).size).toBe(8192)
  truncateSync(path, 4096)
}

describe('the SQLite import lock file', () => {
  const tmp = useTempDir()

  it('is written as one page, so a kill cannot leave half of it', async () => {
    const path = tmp.dbLocation()
    const locks = new SqliteImportLocks(path, undefined)
    const id = randomUUID()
    expect(await locks.take(id)).toBe(true)
    try {
      // One 4 KiB page: SQLite writes it with a single pwrite at offset 0.
      expect(statSync(lockPath(path, id)).size).toBe(4096)
      // Held: another connection (as another process would) is refused at once.
      expect(await new SqliteImportLocks(path, undefined).take(id)).toBe(false)
    } finally {
      await locks.release(id)
    }
    expect(readdirSync(dirname(path)).filter((f) => f.includes('.import-'))).toEqual([])
  })

  it('a torn, a foreign and an empty lock file left by killed imports do not stop the next open; the sweep clears them', async () => {
    const path = tmp.dbLocation()
    const store = await openSqliteStore(path)
    await importTasks(store, [makeTask('kept')])
    // A staged import whose importer died, its lock file torn as the earlier kill left it.
    const dead = await store.beginImport({ fileName: 'b.jsonl', sha256: sha('b'), kind: 'traces' }, ANA)
    await store.writeImportBatch(dead.value.id, { tasks: [makeTask('gone')] })
    await store.close()
    writeTornLock(lockPath(path, dead.value.id))
    // Lock files of imports killed before their row was written: torn, not a database at all, empty.
    writeTornLock(lockPath(path, randomUUID()))
    writeFileSync(lockPath(path, randomUUID()), 'not a database: the first bytes of something else')
    writeFileSync(lockPath(path, randomUUID()), '')

    const next = await openSqliteStore(path)
    try {
      expect(await next.counts()).toMatchObject({ tasks: 1 })
      expect(await next.integrityCheck()).toEqual({ ok: true, messages: [] })
    } finally {
      await next.close()
    }
    const db = rawDb(path, true)
    try {
      expect(db.prepare(`SELECT count(*) AS n FROM imports WHERE id = ?`).get(dead.value.id)).toEqual({ n: 0 })
    } finally {
      db.close()
    }
    expect(readdirSync(dirname(path)).filter((f) => f.startsWith(`${basename(path)}.import-`))).toEqual([])
  })

  it('still refuses a torn lock file while someone holds it', async () => {
    const path = tmp.dbLocation()
    const id = randomUUID()
    writeTornLock(lockPath(path, id))
    // A holder that took it afresh; the torn content is gone, its lock is not.
    const holder = new SqliteImportLocks(path, undefined)
    expect(await holder.take(id)).toBe(true)
    try {
      expect(await new SqliteImportLocks(path, undefined).take(id)).toBe(false)
    } finally {
      await holder.release(id)
    }
  })

  it("a new import whose first id's lock someone holds (a passing sweep) takes another id", async () => {
    const path = tmp.dbLocation()
    const store = await openSqliteStore(path)
    const sweep = new SqliteImportLocks(path, undefined)
    const spoiled = randomUUID()
    expect(await sweep.take(spoiled)).toBe(true)
    try {
      vi.mocked(randomUUID).mockReturnValueOnce(spoiled)
      const imp = await store.beginImport({ fileName: 'a.jsonl', sha256: sha('a'), kind: 'traces' }, ANA)
      expect(imp.value.id).not.toBe(spoiled)
      await store.writeImportBatch(imp.value.id, { tasks: [makeTask('t1')] })
      await store.publishImport(imp.value.id, ANA)
      expect(await store.counts()).toMatchObject({ tasks: 1 })
    } finally {
      await sweep.release(spoiled)
      await store.close()
    }
  })
})
