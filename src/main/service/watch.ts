import type { Store } from '../store'

export const WATCH_INTERVAL_MS = 1000

/**
 * Turns writes by other processes (another window, the CLI, a teammate's `serve`) into
 * events: the store's data version changes only when another connection commits.
 */
export function watchExternalWrites(store: Pick<Store, 'dataVersion'>, onChange: () => void, intervalMs = WATCH_INTERVAL_MS): () => void {
  let last: number | null = null
  let busy = false
  const check = () => {
    if (busy) return
    busy = true
    store
      .dataVersion()
      .then((v) => {
        if (last !== null && v !== last) onChange()
        last = v
      })
      .catch((error: unknown) => console.error('[arbiter] data version check failed:', error))
      .finally(() => (busy = false))
  }
  // The baseline is read at once: a commit between start and the first tick must still count.
  check()
  const timer = setInterval(check, intervalMs)
  timer.unref()
  return () => clearInterval(timer)
}
