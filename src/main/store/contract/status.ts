/** The store as a whole: what it is, its counts and change signal, its integrity, its settings. */
import type { Counts } from '../../../shared/contract/app'
import type { Topic } from '../../../shared/vocabularies'
import type { Actor, WriteResult } from './common'
import type { JsonValue } from './json'

/** What opening the store did to the schema (null when nothing was pending). */
export type MigrationReport = {
  from: number
  to: number
  applied: number[]
  /** The pre-migration copy of an existing database; null for a new one. */
  backupPath: string | null
}

export type StoreInfo = {
  backend: 'sqlite' | 'postgres'
  /** File path (sqlite) or a password-free connection URL (postgres). */
  dbLocation: string
  schemaVersion: number
  readonly: boolean
  migration: MigrationReport | null
}

/**
 * Visible data only (rows of published imports). Decision counts are over the newest fit whose
 * decisions have been saved; all 0 when there is none.
 */
export type StoreCounts = Counts

/** What the database's own check found (the console's IntegrityReport adds when, and the job that ran it). */
export type IntegrityCheckResult = { ok: boolean; messages: string[] }

/** Merge-patch semantics (RFC 7396, one level): a `null` value removes the key. */
export type SettingsPatch = Record<string, JsonValue>
/** Every stored setting, key → JSON value (the console's Settings are the reviewer's few, read from it). */
export type SettingsRecord = Record<string, JsonValue>

/** What a store's change feed reports (`Store.listenChanges`). */
export interface ChangeFeedEvents {
  /** The feed is live: every later commit of another connection will be reported. */
  up(): void
  /** Another connection committed a write that changed these topics. */
  change(topics: Topic[]): void
  /** The feed is lost (reported once, then it is finished): later commits go unreported. */
  down(error: unknown): void
}

export interface StatusStore {
  info(): Promise<StoreInfo>
  counts(): Promise<StoreCounts>
  /** Changes whenever ANOTHER connection commits; a watcher polls it to emit `changed` events. */
  dataVersion(): Promise<number>
  /**
   * Push notice of other connections' commits where the backend has it (PostgreSQL LISTEN/NOTIFY;
   * absent on SQLite, where the watcher polls `dataVersion`). Returns a stop function.
   */
  listenChanges?(events: ChangeFeedEvents): () => void
  integrityCheck(): Promise<IntegrityCheckResult>
  getSettings(): Promise<SettingsRecord>
  setSettings(patch: SettingsPatch, actor: Actor): Promise<WriteResult<SettingsRecord>>
  close(): Promise<void>
}
