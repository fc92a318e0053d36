import { createContext, useContext, useMemo, useState, type ReactNode } from 'react'
import type { LabelSource } from '@shared/api'

export interface GivenLabel {
  labelId: string
  taskId: string
  /** The task version after the label. */
  version: number
  label: string
  /** The source stored (a blind label given again after its reveal is stored as escalation). */
  source: LabelSource
}

/** A Review label or flag of this session, for its progress: when it was acknowledged (ms since the epoch). */
export interface ReviewedLabel {
  labelId: string
  taskId: string
  at: number
}

interface ReviewSession {
  /** Labels this window gave and did not undo (what "next" never offers again). Undo itself is the store's: use-undo.ts. */
  history: GivenLabel[]
  push: (l: GivenLabel) => void
  /** An undone label leaves this window's record (and its progress), whichever window gave it. */
  forget: (labelId: string) => void
  skipped: ReadonlySet<string>
  skip: (taskId: string) => void
  /** Every Review (escalation) label this session gave and did not undo, oldest first (a changed label is a second entry of its task). */
  reviewed: ReviewedLabel[]
  /** Tasks this session flagged ("can't decide"): counted apart from labels in the progress. */
  flagged: ReviewedLabel[]
  flag: (flagId: string, taskId: string) => void
}

const Ctx = createContext<ReviewSession | null>(null)

/** What this window did in the review loop: its labels, flags and the tasks it skipped. */
export function ReviewSessionProvider({ children }: { children: ReactNode }) {
  const [history, setHistory] = useState<GivenLabel[]>([])
  const [skipped, setSkipped] = useState<ReadonlySet<string>>(new Set())
  const [reviewed, setReviewed] = useState<ReviewedLabel[]>([])
  const [flagged, setFlagged] = useState<ReviewedLabel[]>([])
  const value = useMemo<ReviewSession>(
    () => ({
      history,
      push: (l) => {
        setHistory((h) => [...h.slice(-499), l])
        if (l.source === 'escalation') setReviewed((r) => [...r, { labelId: l.labelId, taskId: l.taskId, at: Date.now() }])
      },
      forget: (labelId) => {
        setHistory((h) => h.filter((x) => x.labelId !== labelId))
        setReviewed((r) => r.filter((x) => x.labelId !== labelId))
      },
      skipped,
      skip: (taskId) => setSkipped((s) => new Set(s).add(taskId)),
      reviewed,
      flagged,
      flag: (flagId, taskId) => {
        setFlagged((f) => [...f, { labelId: flagId, taskId, at: Date.now() }])
        // A flagged task stays in the queue for others; this window moves past it.
        setSkipped((s) => new Set(s).add(taskId))
      }
    }),
    [history, skipped, reviewed, flagged]
  )
  return <Ctx.Provider value={value}>{children}</Ctx.Provider>
}

export function useReviewSession(): ReviewSession {
  const c = useContext(Ctx)
  if (!c) throw new Error('useReviewSession outside <ReviewSessionProvider>')
  return c
}
