import { useSyncExternalStore } from 'react'

/**
 * Whether this console's database was replaced while it was open ("Start empty" used in another
 * window or tab): the screens' data then vanishes, which must read as what happened, not as damage.
 */
export interface DatabaseReplacement {
  by: string
  demoMovedTo: string
}

let replacement: DatabaseReplacement | null = null
const listeners = new Set<() => void>()

export function setDatabaseReplaced(next: DatabaseReplacement | null): void {
  replacement = next
  for (const l of [...listeners]) l()
}

export function databaseReplaced(): DatabaseReplacement | null {
  return replacement
}

export function useDatabaseReplaced(): DatabaseReplacement | null {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l)
      return () => listeners.delete(l)
    },
    () => replacement
  )
}
