/**
 * Who owns a staged import: ownership is live, not a timer. The store that begins an
 * import takes the import's lock before its row exists and holds it for the whole import; its
 * process dying frees the lock (the OS closes the file, the server drops the session). So a staged
 * import is dead exactly when its lock can be taken, and whoever takes it may delete its rows.
 *
 * Written once for both backends; each supplies only the lock (`ImportLocks`): SQLite an exclusive
 * lock on a side file `<db>.import-<id>.lock` (sqlite/import-lock.ts), PostgreSQL an advisory lock
 * on a connection of its own, on which the import's writes and its publish run
 * (postgres/import-lock.ts).
 */
import { randomUUID } from 'node:crypto'
import { StoreError, type Actor, type BeginImportInput, type ImportRecord, type ImportSweep, type PublishOptions, type Store, type SweepTarget } from '../contract'
import type { Plan } from '../plan'
import type { Dialect } from './dialect'
import { abandonImport, beginImport, checkBeginInput, publishImport, sweepCandidates, sweepImport, takenOver } from './imports'

/** A backend's import locks: held per import id by this store, until released or the process ends. */
export interface ImportLocks {
  /** Takes the lock without waiting: true when taken (held until `release`), false when someone else holds it. */
  take(importId: string): Promise<boolean>
  /** Whether this store holds the lock and still can act on it (PostgreSQL: its connection is up). */
  holds(importId: string): boolean
  /** Whether this store took the lock but lost it since (PostgreSQL: its connection ended). */
  lost(importId: string): boolean
  /** Releases the lock (a no-op when not held); never throws. */
  release(importId: string): Promise<void>
  /** Releases every lock this store holds (at close). */
  releaseAll(): Promise<void>
  /** Import ids whose lock left something behind to clear (SQLite: a lock file; PostgreSQL: nothing). */
  leftovers(): string[]
}

/**
 * What the ownership rules need from the store: its locks, and a plan run in one read or write
 * transaction (on the import's own connection, when `importId` names one held). The plan is
 * made by `plan()` for each attempt: PostgreSQL retries a transaction from the start.
 */
export type Owners = {
  dialect: Dialect
  locks: ImportLocks
  run<T>(tx: 'read' | 'write', plan: () => Plan<T>, importId?: string): Promise<T>
}

/**
 * The target's dead staged imports and its abandoned ones deleted, each in its own transaction
 * under the lock the sweep took (so two sweeps never both delete, and a sweep never races the
 * publish of a live import). The live ones (their lock is held) are reported with who, where, since.
 */
export async function sweepDeadImports(o: Owners, target: SweepTarget): Promise<ImportSweep> {
  const found = await o.run('read', () => sweepCandidates(o.dialect, target))
  const out: ImportSweep = { swept: [], live: [] }
  for (const imp of found.staged) {
    if (o.locks.holds(imp.id) || !(await o.locks.take(imp.id))) {
      out.live.push(imp)
      continue
    }
    try {
      if (await o.run('write', () => sweepImport(o.dialect, imp.id), imp.id)) out.swept.push(imp.id)
    } finally {
      await o.locks.release(imp.id)
    }
  }
  for (const id of found.abandoned) if (await o.run('write', () => sweepImport(o.dialect, id))) out.swept.push(id)
  if (target === 'all') {
    // Locks of imports killed before their row was written, or after their publish: no row to
    // sweep, only the lock to clear once it is free.
    const staged = new Set(found.staged.map((i) => i.id))
    for (const id of o.locks.leftovers()) if (!staged.has(id) && !o.locks.holds(id) && (await o.locks.take(id))) await o.locks.release(id)
  }
  return out
}

/** Sweeps the dead imports of the same content, then takes a new import's lock before its row exists. */
export async function beginOwnedImport(o: Owners, now: string, input: BeginImportInput, actor: Actor): Promise<ImportRecord> {
  checkBeginInput(input)
  await sweepDeadImports(o, { sha256: input.sha256 })
  const id = await takeNewLock(o.locks)
  try {
    return await o.run('write', () => beginImport(o.dialect, now, id, input, actor), id)
  } catch (e) {
    await o.locks.release(id)
    throw e
  }
}

/**
 * A new import id, its lock taken. A new id's lock can be held for a moment by someone else: on
 * SQLite its file exists, empty, an instant before this store writes its lock, and a sweep at
 * another store's open (which lists every lock file) may take it first, find no import, and let
 * it go. That id is spoiled for this import, not the import: another id is tried.
 */
async function takeNewLock(locks: ImportLocks): Promise<string> {
  const tried: string[] = []
  for (let attempt = 0; attempt < NEW_LOCK_TRIES; attempt++) {
    const id = randomUUID()
    if (await locks.take(id)) return id
    tried.push(id)
  }
  throw new StoreError('internal', `could not take the lock of a new import (tried ${tried.join(', ')})`, { importIds: tried })
}

/** Fresh ids tried for a new import's lock before giving up (each is held only by a passing sweep). */
const NEW_LOCK_TRIES = 3

/** Publishes on the import's own connection, checking it is still staged and this store's; then releases its lock. */
export async function publishOwnedImport(o: Owners, now: string, importId: string, actor: Actor, opts: PublishOptions = {}): Promise<ImportRecord> {
  const lostLock = async () => {
    await o.locks.release(importId)
    return takenOver(importId, 'this process lost its lock (its connection to the database ended)')
  }
  if (o.locks.lost(importId)) throw await lostLock()
  try {
    const published = await o.run('write', () => publishImport(o.dialect, now, importId, actor, opts, o.locks.holds(importId)), importId)
    await o.locks.release(importId)
    return published
  } catch (e) {
    // The lock's connection died under the publish (PostgreSQL): the import is no longer this store's.
    if (o.locks.lost(importId)) throw await lostLock()
    throw e
  }
}

/** Abandons, and releases the lock whatever the write did: a failed abandon (a full disk) leaves a dead import the next sweep deletes, never a stuck one. */
export async function abandonOwnedImport(o: Owners, now: string, importId: string): Promise<ImportRecord> {
  try {
    return await o.run('write', () => abandonImport(o.dialect, now, importId), importId)
  } finally {
    await o.locks.release(importId)
  }
}

/** At open: every dead and abandoned import deleted; a failure closes the store before it is reported. */
export async function sweepAtOpen(store: Store): Promise<void> {
  try {
    await store.sweepDeadImports('all')
  } catch (e) {
    await store.close().catch(() => undefined)
    throw e
  }
}
