import { createContext, useContext, useMemo, useRef, useState, type ReactNode } from 'react'
import type { LabelSource } from '@shared/api'

export interface GivenLabel {
  labelId: string
  taskId: string
  /** The task version after the label: what an undo must match. */
  version: number
  label: string
  source: LabelSource
}

/** A Review label of this session, for its progress: when it was acknowledged (ms since the epoch). */
export interface ReviewedLabel {
  labelId: string
  at: number
}

interface ReviewSession {
  history: GivenLabel[]
  push: (l: GivenLabel) => void
  pop: () => GivenLabel | null
  skipped: ReadonlySet<string>
  skip: (taskId: string) => void
  /** Every Review (escalation) label this session gave and did not undo, oldest first (uncapped, unlike the undo stack). */
  reviewed: ReviewedLabel[]
}

const Ctx = createContext<ReviewSession | null>(null)

/** What this window did in the review loop: the undo stack and the tasks skipped this session. */
export function ReviewSessionProvider({ children }: { children: ReactNode }) {
  const [history, setHistory] = useState<GivenLabel[]>([])
  const [skipped, setSkipped] = useState<ReadonlySet<string>>(new Set())
  const [reviewed, setReviewed] = useState<ReviewedLabel[]>([])
  const ref = useRef(history)
  ref.current = history
  const value = useMemo<ReviewSession>(
    () => ({
      history,
      push: (l) => {
        setHistory((h) => [...h.slice(-49), l])
        if (l.source === 'escalation') setReviewed((r) => [...r, { labelId: l.labelId, at: Date.now() }])
      },
      pop: () => {
        const last = ref.current.at(-1) ?? null
        if (last) {
          setHistory((h) => h.slice(0, -1))
          setReviewed((r) => r.filter((x) => x.labelId !== last.labelId))
        }
        return last
      },
      skipped,
      skip: (taskId) => setSkipped((s) => new Set(s).add(taskId)),
      reviewed
    }),
    [history, skipped, reviewed]
  )
  return <Ctx.Provider value={value}>{children}</Ctx.Provider>
}

export function useReviewSession(): ReviewSession {
  const c = useContext(Ctx)
  if (!c) throw new Error('useReviewSession outside <ReviewSessionProvider>')
  return c
}
