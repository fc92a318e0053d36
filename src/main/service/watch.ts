import type { Store, Topic } from '../store'
import { ALL_TOPICS } from './core'

export const WATCH_INTERVAL_MS = 1000
/** Notifications closer together than this become one `changed` event (their topics' union). */
export const COALESCE_MS = 100
const RETRY_MS = 1000
const RETRY_MAX_MS = 30_000

export type WatchOptions = {
  /** Polling period while there is no change feed (default 1 s). */
  intervalMs?: number
  /** First delay before listening again after the feed is lost; it doubles up to 30 s (default 1 s). */
  retryMs?: number
}

/**
 * Turns writes by other processes (another window, the CLI, a teammate's `serve`) into `changed`
 * events. Where the store has a change feed (PostgreSQL LISTEN/NOTIFY), other writers' commits
 * arrive as they happen, with their topics; otherwise — on SQLite, and on PostgreSQL whenever the
 * listening connection is lost until it is back — the store's data version is polled (it changes
 * only when another connection commits) and a change reports every topic.
 *
 * No commit goes unreported across the switches: polling runs from the start until the feed is
 * live, then one last comparison (read after LISTEN took effect) covers what came before; when the
 * feed is lost, polling resumes against the version read before the feed went live, so whatever
 * was committed since is reported at the next tick (at worst twice, never not at all).
 */
export function watchExternalWrites(
  store: Pick<Store, 'dataVersion' | 'listenChanges'>,
  onChange: (topics: Topic[]) => void,
  opts: WatchOptions = {}
): () => void {
  const intervalMs = opts.intervalMs ?? WATCH_INTERVAL_MS
  const firstRetryMs = opts.retryMs ?? RETRY_MS
  let stopped = false

  // ── polling ──
  let last: number | null = null
  let inflight: Promise<void> | null = null
  let ticker: NodeJS.Timeout | null = null
  const check = (): Promise<void> => {
    if (inflight !== null) return inflight // a slow database: ticks do not pile up
    inflight = store
      .dataVersion()
      .then((v) => {
        if (last !== null && v !== last && !stopped) onChange(ALL_TOPICS)
        last = v
      })
      .catch((error: unknown) => console.error('[arbiter] data version check failed:', error))
      .finally(() => (inflight = null))
    return inflight
  }
  const startPolling = (): void => {
    if (ticker !== null) return
    void check()
    ticker = setInterval(() => void check(), intervalMs)
    ticker.unref()
  }
  const stopPolling = (): void => {
    if (ticker !== null) clearInterval(ticker)
    ticker = null
  }

  // ── the change feed ──
  const pending = new Set<Topic>()
  let flush: NodeJS.Timeout | null = null
  const notice = (topics: Topic[]): void => {
    for (const t of topics) pending.add(t)
    if (flush !== null) return
    flush = setTimeout(() => {
      flush = null
      const union = ALL_TOPICS.filter((t) => pending.has(t))
      pending.clear()
      if (!stopped && union.length > 0) onChange(union)
    }, COALESCE_MS)
  }
  let stopFeed = (): void => {}
  let retry: NodeJS.Timeout | null = null
  let retryMs = firstRetryMs
  const listen = (): void => {
    retry = null
    if (stopped || store.listenChanges === undefined) return
    try {
      stopFeed = store.listenChanges({
        up: () => {
          if (stopped) return
          retryMs = firstRetryMs
          stopPolling()
          // The in-flight comparison may predate the LISTEN: compare once more, from now.
          void (inflight ?? Promise.resolve()).then(check)
        },
        change: (topics) => {
          if (!stopped) notice(topics)
        },
        down: (error) => {
          if (stopped) return
          console.error(`[arbiter] change notifications lost (${String((error as Error)?.message ?? error)}); polling until they are back`)
          startPolling()
          retry = setTimeout(listen, retryMs)
          retry.unref()
          retryMs = Math.min(retryMs * 2, RETRY_MAX_MS)
        }
      })
    } catch (error) {
      console.error('[arbiter] cannot listen for changes; polling instead:', error)
    }
  }

  startPolling()
  listen()
  return () => {
    stopped = true
    stopPolling()
    if (retry !== null) clearTimeout(retry)
    if (flush !== null) clearTimeout(flush)
    stopFeed()
  }
}
