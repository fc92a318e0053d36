/**
 * SQLite's import lock (../ops/import-owners.ts): a side file `<db>.import-<id>.lock`, itself a
 * tiny SQLite database that this store opens in locking_mode=EXCLUSIVE and writes to, so its
 * connection holds the file's exclusive OS lock until it closes — or the process dies and the OS
 * drops it. Nothing of the main database is held open across an import (a read transaction there
 * would pin its WAL). The lock file is never opened by Node itself: closing any descriptor of a
 * file drops the process's POSIX locks on it, which SQLite alone knows to avoid.
 * A database without a file (`:memory:`) is seen by this store alone: its locks are a set.
 */
import Database from 'better-sqlite3'
import { readdirSync, rmSync, unlinkSync } from 'node:fs'
import { basename, dirname } from 'node:path'
import type { ImportLocks } from '../ops/import-owners'
import { makePrivate } from './private-file'

const SUFFIX = '.lock'

const codeOf = (e: unknown): unknown => (e as { code?: unknown }).code
/** Someone else holds the lock. */
const busy = (e: unknown): boolean => codeOf(e) === 'SQLITE_BUSY' || codeOf(e) === 'SQLITE_LOCKED'
/** The lock file is not a whole SQLite database. */
const torn = (e: unknown): boolean => codeOf(e) === 'SQLITE_CORRUPT' || codeOf(e) === 'SQLITE_NOTADB'

export class SqliteImportLocks implements ImportLocks {
  /** Held locks: their connection (null for a database without a file). */
  private readonly held = new Map<string, Database.Database | null>()

  /** `dbLocation`: null for a database without a file. */
  constructor(
    private readonly dbLocation: string | null,
    private readonly nativeBinding: string | undefined
  ) {}

  private file(importId: string): string {
    return `${this.dbLocation as string}.import-${importId}${SUFFIX}`
  }

  take(importId: string): Promise<boolean> {
    return Promise.resolve(this.takeNow(importId))
  }

  private takeNow(importId: string): boolean {
    if (this.held.has(importId)) return false
    if (this.dbLocation === null) {
      this.held.set(importId, null)
      return true
    }
    let db: Database.Database
    try {
      db = this.lock(importId)
    } catch (e) {
      if (busy(e)) return false
      if (!torn(e)) throw e
      // Its writer was killed mid-write (an earlier Arbiter wrote two pages here; a power cut can
      // tear one). Nobody holds it — a holder's lock answers BUSY before a page is read — and its
      // content means nothing, so it starts afresh. Two sweeps doing this at once may both think
      // they hold it; the import it names is dead, so they can only both try to delete the same
      // staged rows, each in a transaction, and the second finds none.
      rmSync(this.file(importId), { force: true }) // force: a sweep doing the same may have removed it first
      try {
        db = this.lock(importId)
      } catch (again) {
        if (busy(again)) return false
        throw again
      }
    }
    this.held.set(importId, db)
    return true
  }

  /**
   * Opens the lock file and writes to it, so that its exclusive lock is held until close. The write
   * is the header's user_version (the holder's pid, for whoever looks): one page, written by one
   * pwrite at offset 0, so a kill cannot leave the file half-written. (Its journal is in memory:
   * a write of two pages — a table, as an earlier Arbiter wrote — torn by a kill left a file that
   * SQLite calls malformed, and every later open of the database failed in its sweep.)
   */
  private lock(importId: string): Database.Database {
    // No busy timeout: a held lock is an importer at work, not a moment's contention.
    const db = new Database(this.file(importId), { timeout: 0, ...(this.nativeBinding === undefined ? {} : { nativeBinding: this.nativeBinding }) })
    try {
      db.pragma('locking_mode = EXCLUSIVE')
      db.pragma('journal_mode = MEMORY')
      // A write: only a writer's lock is exclusive (a reader's lets other readers in), and in this
      // mode it is kept after the commit.
      db.exec(`BEGIN IMMEDIATE; PRAGMA user_version = ${process.pid}; COMMIT`)
      makePrivate(this.file(importId))
      return db
    } catch (e) {
      db.close()
      throw e
    }
  }

  holds(importId: string): boolean {
    return this.held.has(importId)
  }

  /** An OS lock is held until this process closes it or ends: never lost. */
  lost(): boolean {
    return false
  }

  release(importId: string): Promise<void> {
    const db = this.held.get(importId)
    if (db === undefined) return Promise.resolve()
    this.held.delete(importId)
    if (db !== null) {
      try {
        db.close()
      } catch {
        // closing a connection that holds nothing else cannot lose data
      }
      // A sweep that opened it meanwhile takes the lock on the unlinked file, finds the import gone, and leaves.
      try {
        unlinkSync(this.file(importId))
      } catch {
        // gone already (another sweep), or a read-only folder: a stray file, swept by the next open
      }
    }
    return Promise.resolve()
  }

  async releaseAll(): Promise<void> {
    for (const id of [...this.held.keys()]) await this.release(id)
  }

  /** Import ids with a lock file next to the database (a killed import, or one killed before its row was written). */
  leftovers(): string[] {
    if (this.dbLocation === null) return []
    const prefix = `${basename(this.dbLocation)}.import-`
    try {
      return readdirSync(dirname(this.dbLocation))
        .filter((f) => f.startsWith(prefix) && f.endsWith(SUFFIX))
        .map((f) => f.slice(prefix.length, -SUFFIX.length))
    } catch {
      return []
    }
  }
}
