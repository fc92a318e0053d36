/**
 * PostgreSQL's import lock (../ops/import-owners.ts): a session advisory lock keyed by the import
 * id, on a connection of its own outside the pool, held for the whole import. The import's batches
 * and its publish run on that connection (store.ts), so a publish whose lock was lost cannot
 * commit. TCP keepalives on both ends — idle 10 s, then a probe every 5 s, 3 unanswered probes — so
 * a client that vanishes (power cut, cable) is dropped by the server, and its lock freed, within
 * 10 + 5 × 3 = 25 s; a client killed outright is dropped at once (its socket closes).
 */
import pg from 'pg'
import type { ImportLocks } from '../ops/import-owners'
import { TYPES } from './connection'

const KEEPALIVE = { idleS: 10, intervalS: 5, count: 3 }
/** The advisory key of import `$1`: its id hashed to 64 bits (the migrations' key is a small constant). */
const KEY = `hashtextextended('arbiter.import:' || $1, 0)`

type Held = { client: pg.Client; up: boolean }

export class PgImportLocks implements ImportLocks {
  private readonly held = new Map<string, Held>()

  constructor(private readonly connectionString: string | undefined) {}

  async take(importId: string): Promise<boolean> {
    if (this.held.has(importId)) return false
    const client = new pg.Client({
      connectionString: this.connectionString,
      types: TYPES,
      application_name: 'arbiter import',
      connectionTimeoutMillis: 15_000,
      keepAlive: true,
      keepAliveInitialDelayMillis: KEEPALIVE.idleS * 1000,
      options: `-c tcp_keepalives_idle=${KEEPALIVE.idleS} -c tcp_keepalives_interval=${KEEPALIVE.intervalS} -c tcp_keepalives_count=${KEEPALIVE.count}`
    })
    const entry: Held = { client, up: true }
    // A dropped connection must not crash the process: the import learns of it at its next write.
    const down = () => {
      entry.up = false
    }
    client.on('error', down)
    client.on('end', down)
    await client.connect()
    let taken = false
    try {
      taken = (await client.query<{ taken: boolean }>(`SELECT pg_try_advisory_lock(${KEY}) AS taken`, [importId])).rows[0].taken
    } finally {
      if (!taken) await client.end().catch(() => undefined)
    }
    if (taken) this.held.set(importId, entry)
    return taken
  }

  holds(importId: string): boolean {
    return this.held.get(importId)?.up === true
  }

  lost(importId: string): boolean {
    return this.held.get(importId)?.up === false
  }

  /** The connection holding the import's lock (even a lost one: a write on it fails, never moves to the pool). */
  clientOf(importId: string): pg.Client | null {
    return this.held.get(importId)?.client ?? null
  }

  async release(importId: string): Promise<void> {
    const entry = this.held.get(importId)
    if (entry === undefined) return
    this.held.delete(importId)
    // Ending the session frees its advisory locks.
    await entry.client.end().catch(() => undefined)
  }

  async releaseAll(): Promise<void> {
    await Promise.all([...this.held.keys()].map((id) => this.release(id)))
  }

  leftovers(): string[] {
    return []
  }
}
