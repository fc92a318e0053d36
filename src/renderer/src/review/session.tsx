import { createContext, useContext, useMemo, useRef, useState, type ReactNode } from 'react'

export interface GivenLabel {
  labelId: string
  taskId: string
  /** The task version after the label: what an undo must match. */
  version: number
  label: string
}

interface ReviewSession {
  history: GivenLabel[]
  push: (l: GivenLabel) => void
  pop: () => GivenLabel | null
  skipped: ReadonlySet<string>
  skip: (taskId: string) => void
}

const Ctx = createContext<ReviewSession | null>(null)

/** What this window did in the review loop: the undo stack and the tasks skipped this session. */
export function ReviewSessionProvider({ children }: { children: ReactNode }) {
  const [history, setHistory] = useState<GivenLabel[]>([])
  const [skipped, setSkipped] = useState<ReadonlySet<string>>(new Set())
  const ref = useRef(history)
  ref.current = history
  const value = useMemo<ReviewSession>(
    () => ({
      history,
      push: (l) => setHistory((h) => [...h.slice(-49), l]),
      pop: () => {
        const last = ref.current.at(-1) ?? null
        if (last) setHistory((h) => h.slice(0, -1))
        return last
      },
      skipped,
      skip: (taskId) => setSkipped((s) => new Set(s).add(taskId))
    }),
    [history, skipped]
  )
  return <Ctx.Provider value={value}>{children}</Ctx.Provider>
}

export function useReviewSession(): ReviewSession {
  const c = useContext(Ctx)
  if (!c) throw new Error('useReviewSession outside <ReviewSessionProvider>')
  return c
}
