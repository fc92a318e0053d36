import { QueryClient, QueryClientProvider, useQueryClient } from '@tanstack/react-query'
import { createContext, useContext, useEffect, useState, type ReactNode } from 'react'
import type { BridgeApi, ConsoleApi } from '@shared/api'
import type { ApiMethod } from '@shared/api-methods'
import type { ApiEvent } from '@shared/events'
import { eventTopics, keyNamesOneOf, queriesReading } from './call-keys'
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

/**
 * Turns change events into query invalidations (the queries whose contract `reads` meet the event's
 * topics), coalesced: a burst of writes (a reviewer resolving quickly, an import publishing)
 * refetches each affected query once, after the burst, instead of queueing refetches in front of
 * the reviewer's next call.
 */
function LiveInvalidation({ bridge }: { bridge: BridgeApi }) {
  const qc = useQueryClient()
  useEffect(() => {
    const pending = new Set<ApiMethod>()
    let timer: number | null = null
    let first = 0
    const flush = () => {
      timer = null
      const stale = new Set(pending)
      pending.clear()
      void qc.invalidateQueries({ predicate: (q) => keyNamesOneOf(q.queryKey, stale) })
    }
    const off = bridge.onEvent((e) => {
      for (const method of queriesReading(eventTopics(e))) pending.add(method)
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
