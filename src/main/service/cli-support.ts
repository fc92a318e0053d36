/**
 * What the database commands of the CLI share (`import`, `fit`, `decide`, `export`, `demo`): the
 * database location, the actor their writes are recorded under, and opening the store only when a
 * command gets that far (a rejected import must not even create the file).
 */
import { randomUUID } from 'node:crypto'
import { existsSync, rmSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { defaultDbLocation, makeDataFolder } from '../paths'
import { isServerLocation, openStore, type Actor, type Store } from '../store'
import { settingsFromStored } from './settings'

/** `--db`: a file path (made absolute) or a `postgres://` URL (kept as given). */
export function dbLocationOf(flag: string | undefined): string {
  if (flag !== undefined && isServerLocation(flag)) return flag
  return resolve(flag ?? defaultDbLocation())
}

/** Opens on first use, at most once; `close()` is a no-op when it never opened. */
export class LazyStore {
  private store: Store | null = null
  /** The first open made the database file (none was there before). */
  private created = false

  constructor(readonly dbLocation: string) {}

  get = async (): Promise<Store> => {
    if (this.store === null) {
      if (!isServerLocation(this.dbLocation)) {
        makeDataFolder(dirname(this.dbLocation))
        this.created = !existsSync(this.dbLocation)
      }
      this.store = await openStore(this.dbLocation)
    }
    return this.store
  }

  async close(): Promise<void> {
    await this.store?.close()
    this.store = null
  }

  /**
   * Closes, and removes the database file if this run made it and it holds no task, label or fit:
   * a refused import leaves no database behind. A file that was there before, or that gained data
   * (another process writing to the new file), stays.
   */
  async closeRemovingIfUnused(): Promise<void> {
    const store = this.store
    if (store === null) return
    const c = this.created ? await store.counts().catch(() => null) : null
    await this.close()
    if (c === null || c.tasks > 0 || c.labels > 0 || c.fits > 0) return
    for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(`${this.dbLocation}${suffix}`, { force: true })
  }
}

/**
 * Commands that read an existing database refuse a missing one instead of creating it. A server
 * database is checked by connecting (opening it reports a missing one).
 */
export function requireDatabase(dbLocation: string): void {
  if (isServerLocation(dbLocation)) return
  if (!existsSync(dbLocation)) throw Object.assign(new Error(`no database at ${dbLocation} (import traces first, or give --db)`), { code: 'bad_input' })
}

/** The CLI writes as the reviewer named in the database's settings, from a session of its own. */
export async function cliActor(store: Store): Promise<Actor> {
  return { reviewer: settingsFromStored(await store.getSettings()).reviewer, sessionId: `cli-${randomUUID()}`, shell: 'cli' }
}
