/**
 * The one better-sqlite3 connection behind a store: pragmas, prepared-statement cache,
 * transactions, and the mapping of driver errors onto StoreError. Everything here is
 * synchronous; the async boundary is store.ts.
 */
import Database from 'better-sqlite3'
import { StoreError } from '../contract'

export type Db = Database.Database
export type Params = unknown[]

export const DEFAULT_BUSY_TIMEOUT_MS = 5000

/** Every connection's page cache, in KiB (better-sqlite3's build default, set here so that a pragma that changes it for one statement knows what to restore). */
export const CONNECTION_CACHE_KIB = 16_000

/** SQLite's default: checkpoint the WAL into the database once it holds this many pages. */
const DEFAULT_CHECKPOINT_PAGES = 1000
/**
 * While an import writes its staged batches: every checkpoint syncs the WAL and the database file,
 * and at the default a 200k-task import would checkpoint (and sync twice) every few batches. The
 * WAL may grow to 64 MiB instead; the next ordinary commit checkpoints it.
 */
const STAGED_CHECKPOINT_PAGES = 16_384

/**
 * WAL lets readers (the UI) run while a worker writes; synchronous=FULL makes an acknowledged
 * label survive power loss (docs/architecture.md); foreign keys are per-connection in SQLite, so every
 * connection must turn them on.
 */
export function applyPragmas(db: Db, opts: { readonly: boolean; busyTimeoutMs: number }): void {
  db.pragma(`busy_timeout = ${Math.max(0, Math.floor(opts.busyTimeoutMs))}`)
  db.pragma('foreign_keys = ON')
  db.pragma(`cache_size = -${CONNECTION_CACHE_KIB}`)
  if (opts.readonly) return
  const mode = String(db.pragma('journal_mode = WAL', { simple: true })).toLowerCase()
  if (mode !== 'wal' && mode !== 'memory') {
    throw new StoreError('internal', `could not switch the database to WAL (journal_mode is ${mode})`)
  }
  db.pragma('synchronous = FULL')
}

/**
 * Statements are prepared on first use and kept, so each SQL text is compiled once per
 * connection; lazily, so a store opened on a test-only schema does not fail on statements that
 * target tables it lacks until they are used.
 */
/** Statements kept per connection: each fit's decisions table has its own SQL texts, so the cache is bounded. */
const STATEMENT_CACHE = 400

export class Sql {
  private readonly cache = new Map<string, Database.Statement>()

  constructor(readonly db: Db) {}

  stmt(sql: string): Database.Statement {
    let s = this.cache.get(sql)
    if (s === undefined) {
      s = this.db.prepare(sql)
      // Insertion order is age: the oldest text goes first (a fit's texts age out with the fit).
      if (this.cache.size >= STATEMENT_CACHE) this.cache.delete(this.cache.keys().next().value as string)
      this.cache.set(sql, s)
    }
    return s
  }

  get<T>(sql: string, ...params: Params): T | undefined {
    return this.stmt(sql).get(...params) as T | undefined
  }

  all<T>(sql: string, ...params: Params): T[] {
    return this.stmt(sql).all(...params) as T[]
  }

  run(sql: string, ...params: Params): number {
    return this.stmt(sql).run(...params).changes
  }

  /** An INSERT; returns the new row's rowid. */
  insert(sql: string, ...params: Params): number {
    return Number(this.stmt(sql).run(...params).lastInsertRowid)
  }

  private readonly tables = new Map<string, boolean>()

  /** Whether the schema has this table (cached: tables are only added by migrations, at open). */
  hasTable(name: string): boolean {
    let has = this.tables.get(name)
    if (has === undefined) {
      has = this.get(`SELECT 1 AS one FROM sqlite_master WHERE name = ?`, name) !== undefined
      this.tables.set(name, has)
    }
    return has
  }

  /** A write transaction. IMMEDIATE takes the write lock up front, so a reader never has to
   *  upgrade mid-transaction (the one case busy_timeout cannot resolve in WAL mode). */
  write<T>(fn: () => T): T {
    return this.db.transaction(fn).immediate()
  }

  /**
   * A write transaction that need not survive a power cut on its own: an import's staged batch
   * (invisible until published, swept if lost). With WAL, synchronous=NORMAL still keeps the file
   * consistent (the WAL is synced before each checkpoint), and the publish, written with FULL,
   * syncs every frame before it. Everything else stays FULL.
   */
  writeStaged<T>(fn: () => T): T {
    if (this.readonlyConnection()) return this.write(fn)
    this.db.pragma('synchronous = NORMAL')
    this.db.pragma(`wal_autocheckpoint = ${STAGED_CHECKPOINT_PAGES}`)
    try {
      return this.write(fn)
    } finally {
      this.db.pragma('synchronous = FULL')
      this.db.pragma(`wal_autocheckpoint = ${DEFAULT_CHECKPOINT_PAGES}`)
    }
  }

  private checkpointOwed = false

  /**
   * A write transaction whose commit does not checkpoint the write-ahead log (however large it
   * has grown): a decide's finish commits its indexes, and copying the log into the database
   * file — half a second at a million decisions — waits for `close` (or the next commit)
   * instead of the caller. The commit itself is as durable as any (synchronous=FULL).
   */
  writeUncheckpointed<T>(fn: () => T): T {
    if (this.readonlyConnection()) return this.write(fn)
    this.db.pragma('wal_autocheckpoint = 0')
    try {
      const value = this.write(fn)
      this.checkpointOwed = true
      return value
    } finally {
      this.db.pragma(`wal_autocheckpoint = ${DEFAULT_CHECKPOINT_PAGES}`)
    }
  }

  /** The checkpoint a `writeUncheckpointed` commit left, if any (PASSIVE: it waits for no one). */
  payCheckpoint(): void {
    if (!this.checkpointOwed) return
    this.checkpointOwed = false
    this.db.pragma('wal_checkpoint(PASSIVE)')
  }

  private readonlyConnection(): boolean {
    return this.db.readonly || this.db.memory
  }

  /** A read transaction: several SELECTs see one snapshot. */
  read<T>(fn: () => T): T {
    return this.db.transaction(fn).deferred()
  }
}

/** Driver errors never leave the store as such: constraint failures are the caller's input. */
export function toStoreError(e: unknown): StoreError {
  if (e instanceof StoreError) return e
  if (e instanceof Database.SqliteError) {
    if (e.code.startsWith('SQLITE_CONSTRAINT')) {
      return new StoreError('bad_input', e.message, { cause: e.code })
    }
    if (e.code.startsWith('SQLITE_BUSY')) {
      return new StoreError('internal', `the database stayed locked by another writer: ${e.message}`, { cause: e.code })
    }
    if (e.code === 'SQLITE_CANTOPEN') {
      return new StoreError('not_found', `cannot open the database file: ${e.message}`, { cause: e.code })
    }
    // What the disk refused, said in words: the driver's own text ("disk I/O error") names neither
    // the likely cause nor that the transaction was rolled back.
    if (e.code === 'SQLITE_FULL') {
      return new StoreError('internal', 'could not write to the database: the disk is full (or the file size limit was reached); nothing of this operation was saved', { cause: e.code })
    }
    if (e.code.startsWith('SQLITE_IOERR')) {
      return new StoreError('internal', `could not read or write the database (${e.code}: ${e.message}): the disk may be full, over a file size limit, or failing; nothing of this operation was saved`, { cause: e.code })
    }
    if (e.code.startsWith('SQLITE_READONLY')) {
      return new StoreError('internal', `could not write to the database: it is read-only here (${e.message}); nothing of this operation was saved`, { cause: e.code })
    }
    return new StoreError('internal', e.message, { cause: e.code })
  }
  if (e instanceof TypeError && /directory does not exist/i.test(e.message)) {
    return new StoreError('not_found', e.message)
  }
  return new StoreError('internal', e instanceof Error ? e.message : String(e))
}
