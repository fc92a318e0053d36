import type { Migration } from './migrations'

/** What opening a store of either backend takes (each backend adds its own). */
export type OpenOptions = {
  /** Test-only: a schema history other than the shipped one. */
  migrations?: readonly Migration[]
  /** No writes at all: no migration, no sweep; write operations are refused. */
  readonly?: boolean
  /**
   * A staged import whose last batch is older than this is taken to belong to a dead process
   * and is swept at open. Keep it well above the time between two batches. Default one hour.
   */
  staleImportMs?: number
  /** Test seam for the clock. */
  now?: () => Date
}

export const DEFAULT_STALE_IMPORT_MS = 60 * 60 * 1000
