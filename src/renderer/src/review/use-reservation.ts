import { useCallback, useEffect, useRef, useState } from 'react'
import type { Reservation, TaskDetail } from '@shared/api'
import type { ApiEvent } from '@shared/events'
import { useApi, useApiEvents } from '../api/context'
import { takeClaim } from './claims'
import { useReviewSession } from './session'

/** How often an open task's hold is renewed (the hold itself lasts 10 minutes). */
export const HEARTBEAT_MS = 60_000

/**
 * Holds the open task for this window: reserved when the review screen opens it (unless
 * "next" reserved it a moment ago, claims.ts),
 * renewed every minute while it stays open, released when the reviewer leaves it or closes the
 * tab. Returns who else holds it (null: this window does, or nobody does): until the first answer,
 * what the task's detail said; after it, what the store answered. While another holds it, every
 * change of tasks (their label, their release) makes this window try again at once.
 */
export function useReservation(detail: TaskDetail): Reservation | null {
  const api = useApi()
  const taskId = detail.task.id
  // A task "next" has just reserved for this window is held already: no second reserve on opening it.
  const [answer, setAnswer] = useState<{ heldBy: Reservation | null } | null>(() => (takeClaim(taskId) ? { heldBy: null } : null))
  const claimed = useRef(answer !== null)
  const heldBy = useRef<Reservation | null>(null)
  const stopped = useRef(false)
  // The store ends a hold with its holder's label: leaving a task this window labeled since it
  // opened it releases nothing (one write less per resolve → next, and none that waits behind a
  // refit's). A task reopened from the history, left without a new label, is released as usual.
  const { history } = useReviewSession()
  const labelsNow = history.reduce((n, h) => (h.taskId === taskId ? n + 1 : n), 0)
  const labelsAtOpen = useRef(labelsNow)
  const labeledHere = useRef(false)
  labeledHere.current = labelsNow > labelsAtOpen.current

  const reserve = useCallback(() => {
    void api['task.reserve']({ taskId })
      .then((r) => {
        if (stopped.current) return
        heldBy.current = r.heldBy
        setAnswer({ heldBy: r.heldBy })
      })
      .catch(() => {})
  }, [api, taskId])

  useEffect(() => {
    stopped.current = false
    if (claimed.current) claimed.current = false
    else reserve()
    const timer = window.setInterval(reserve, HEARTBEAT_MS)
    const release = () => void api['task.release']({ taskId }).catch(() => {})
    // A page restored from the back-forward cache had released its hold as it was hidden.
    const restored = (e: PageTransitionEvent) => e.persisted && reserve()
    window.addEventListener('pagehide', release)
    window.addEventListener('pageshow', restored)
    return () => {
      stopped.current = true
      window.clearInterval(timer)
      window.removeEventListener('pagehide', release)
      window.removeEventListener('pageshow', restored)
      if (!labeledHere.current) release()
    }
  }, [api, taskId, reserve])

  useApiEvents(
    useCallback(
      (e: ApiEvent) => {
        if (heldBy.current !== null && e.type === 'changed' && e.topics.includes('tasks')) reserve()
      },
      [reserve]
    )
  )

  if (answer !== null) return answer.heldBy
  return detail.reservedByOther ? detail.reservation : null
}
