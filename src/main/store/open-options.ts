import type { Migration } from './migrations'

/** What opening a store of either backend takes (each backend adds its own). */
export type OpenOptions = {
  /** Test-only: a schema history other than the shipped one. */
  migrations?: readonly Migration[]
  /** No writes at all: no migration, no sweep; write operations are refused. */
  readonly?: boolean
  /** Test seam for the clock. */
  now?: () => Date
}

