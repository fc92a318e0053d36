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
  tasks: ['app.counts'],
  labels: ['app.counts'],
  decisions: ['app.counts'],
  fits: ['app.counts'],
  imports: ['app.counts'],
  settings: ['settings.get'],
  audit: []
}

function LiveInvalidation({ bridge }: { bridge: BridgeApi }) {
  const qc = useQueryClient()
  useEffect(
    () =>
      bridge.onEvent((e) => {
        if (e.type !== 'changed') return
        const keys = new Set(e.topics.flatMap((t) => QUERIES_BY_TOPIC[t] ?? []))
        for (const key of keys) void qc.invalidateQueries({ queryKey: [key] })
      }),
    [bridge, qc]
  )
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
