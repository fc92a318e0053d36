import { useEffect, useRef, useState } from 'react'
import { shortLabel } from '../components/LongText'
import { useReviewSession } from './session'

/** How long a blind commit can be undone from its bar. */
export const UNDO_BAR_MS = 3000

export interface BlindCommit {
  taskId: string
  label: string
  /** When it was acknowledged (ms since the epoch): a new commit is a new bar. */
  at: number
}

/**
 * The bar after every blind commit in Calibrate: what was labeled and an Undo button, for three
 * seconds. Its undo is the screen's own (`onUndo`, as ⌫: the task comes back with its verdict seen,
 * and a new label of it is stored as escalation), offered only while this commit is this window's
 * latest label.
 */
export function UndoBar({ commit, onClose, onUndo }: { commit: BlindCommit; onClose: () => void; onUndo: () => Promise<void> }) {
  const session = useReviewSession()
  const [undoing, setUndoing] = useState(false)
  // The bar's three seconds run from its commit, whatever re-renders the screen in between.
  const close = useRef(onClose)
  close.current = onClose
  useEffect(() => {
    const t = window.setTimeout(() => close.current(), UNDO_BAR_MS)
    return () => window.clearTimeout(t)
  }, [commit.at])
  // Only while this commit is still the window's latest label: the undo takes the latest one.
  const latest = session.history.at(-1)
  const undoable = latest !== undefined && latest.taskId === commit.taskId && latest.label === commit.label
  return (
    <div className="undo-bar" role="status" data-testid="calibrate-undo-bar" data-task-id={commit.taskId}>
      <span>
        Labeled <strong>{shortLabel(commit.label, 60)}</strong> blind on <span className="mono">{shortLabel(commit.taskId, 40)}</span>.
      </span>
      <button
        type="button"
        className="small"
        data-testid="calibrate-undo-bar-undo"
        disabled={!undoable || undoing}
        onClick={async () => {
          setUndoing(true)
          await onUndo()
          onClose()
        }}
      >
        Undo
      </button>
      <span className="undo-time" aria-hidden="true" />
    </div>
  )
}
