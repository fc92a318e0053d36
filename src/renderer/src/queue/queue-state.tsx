import { createContext, useContext, useMemo, useState, type ReactNode } from 'react'
import type { TaskFilterArgs } from '@shared/api'
import type { QueueQuery } from '../api/queries'

export const DEFAULT_FILTER: TaskFilterArgs = { decision: 'defer', group: null, seat: null, candidate: null, labelSource: null, spotCheck: null, search: null }

interface QueueState {
  query: QueueQuery
  setQuery: (q: QueueQuery) => void
  /** The row the keyboard cursor is on, kept across screens so Back returns to it. */
  cursor: number
  setCursor: (i: number) => void
}

const Ctx = createContext<QueueState | null>(null)

/** The queue's filter and sort live above the screens: Review uses them to pick the next task. */
export function QueueStateProvider({ children }: { children: ReactNode }) {
  const [query, setQuery] = useState<QueueQuery>({ filter: DEFAULT_FILTER, sort: 'gap', direction: 'asc' })
  const [cursor, setCursor] = useState(0)
  const value = useMemo(() => ({ query, setQuery, cursor, setCursor }), [query, cursor])
  return <Ctx.Provider value={value}>{children}</Ctx.Provider>
}

export function useQueueState(): QueueState {
  const c = useContext(Ctx)
  if (!c) throw new Error('useQueueState outside <QueueStateProvider>')
  return c
}
