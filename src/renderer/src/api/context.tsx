import { QueryClient, QueryClientProvider, useQueryClient } from '@tanstack/react-query'
import { createContext, useContext, useEffect, useState, type ReactNode } from 'react'
import type { BridgeApi, ConsoleApi } from '@shared/api'
import type { ApiEvent, Topic } from '@shared/events'
import { createClient } from './client'

interface Connection {
  api: ConsoleApi
  bridge: BridgeApi
}

const ApiContext = createContext<Connection | null>(null)

export function useApi(): ConsoleApi {
  const c = useContext(ApiContext)
  if (!c) throw new Error('useApi outside <ApiProvider>')
  return c.api
}

/** Subscribes to the main side's events for as long as the component is mounted. */
export function useApiEvents(listener: (e: ApiEvent) => void): void {
  const c = useContext(ApiContext)
  useEffect(() => c?.bridge.onEvent(listener), [c, listener])
}

/** Which queries read which topics: a write's topics invalidate exactly those. */
const QUERIES_BY_TOPIC: Record<Topic, string[]> = {
  tasks: ['app.counts', 'queue.page', 'queue.facets', 'task.detail', 'imports.list', 'demo.status', 'adjudicate.list'],
  labels: ['app.counts', 'queue.page', 'task.detail', 'labels.recent', 'labels.history', 'fits.status', 'audit.summary', 'calibrate.draw', 'adjudicate.list', 'fits.whatIf'],
  decisions: ['app.counts', 'queue.page', 'task.detail', 'audit.summary', 'fits.whatIf'],
  fits: ['app.counts', 'queue.page', 'task.detail', 'fits.list', 'fits.status', 'fits.get', 'audit.summary', 'fits.whatIf'],
  imports: ['app.counts', 'imports.list', 'queue.facets'],
  settings: ['settings.get', 'engine.getSettings', 'engine.defaultsNotice', 'demo.status', 'team.getSettings'],
  audit: ['audit.tail']
}

/**
 * Turns change events into query invalidations, coalesced: a burst of writes (a reviewer
 * resolving quickly, an import publishing) refetches each affected query once, after the burst,
 * instead of queueing refetches in front of the reviewer's next call.
 */
function LiveInvalidation({ bridge }: { bridge: BridgeApi }) {
  const qc = useQueryClient()
  useEffect(() => {
    const pending = new Set<string>()
    let timer: number | null = null
    let first = 0
    const flush = () => {
      timer = null
      for (const key of pending) void qc.invalidateQueries({ queryKey: [key] })
      pending.clear()
    }
    const off = bridge.onEvent((e) => {
      const topics: Topic[] = e.type === 'changed' ? e.topics : e.type === 'fit-landed' ? ['fits', 'decisions'] : []
      for (const t of topics) for (const key of QUERIES_BY_TOPIC[t] ?? []) pending.add(key)
      if (pending.size === 0) return
      const now = Date.now()
      if (timer === null) first = now
      else window.clearTimeout(timer)
      // Quiet for 300 ms, but never more than 1 s behind the first event of a burst.
      timer = window.setTimeout(flush, Math.max(0, Math.min(300, first + 1000 - now)))
    })
    return () => {
      off()
      if (timer !== null) window.clearTimeout(timer)
    }
  }, [bridge, qc])
  return null
}

export function ApiProvider({ bridge, children }: { bridge: BridgeApi; children: ReactNode }) {
  const [conn] = useState<Connection>(() => ({ api: createClient(bridge), bridge }))
  const [queryClient] = useState(() => new QueryClient({ defaultOptions: { queries: { staleTime: 5_000, retry: 1 } } }))
  return (
    <ApiContext.Provider value={conn}>
      <QueryClientProvider client={queryClient}>
        <LiveInvalidation bridge={bridge} />
        {children}
      </QueryClientProvider>
    </ApiContext.Provider>
  )
}
