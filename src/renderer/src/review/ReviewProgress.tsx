import { useEffect } from 'react'
import { useQueuePage } from '../api/queries'
import { useQueueState } from '../queue/queue-state'
import { pace } from './pace'
import { useReviewSession, type ReviewedLabel } from './session'

export interface Progress {
  /** Tasks labeled in Review this session (undone ones excluded; a changed label counts once). */
  done: number
  /** Tasks flagged this session ("can't decide"): not labels, so counted apart from `done`. */
  flagged: number
  /** Tasks in the queue as its filter shows it; null until the queue has answered. */
  left: number | null
  /** The pace between this session's first and last label, in labels per hour; null before two. */
  perHour: number | null
}

export function useReviewProgress(): Progress {
  const { reviewed, flagged } = useReviewSession()
  const { query } = useQueueState()
  const page = useQueuePage(query, 0)
  // A task counts once however often its label was changed: the progress is of tasks done.
  const tasks = firstPerTask(reviewed)
  return { done: tasks.length, flagged: firstPerTask(flagged).length, left: page.data?.total ?? null, perHour: pace(tasks) }
}

const APP_TITLE = 'Arbiter'

/** The browser tab says the progress while Review is open ("12 done · 340 left — Arbiter"). */
export function useProgressTitle({ done, flagged, left }: Progress): void {
  useEffect(() => {
    document.title = left === null ? APP_TITLE : `${done} done${flagged > 0 ? ` · ${flagged} flagged` : ''} · ${left} left — ${APP_TITLE}`
  }, [done, flagged, left])
  useEffect(() => () => void (document.title = APP_TITLE), [])
}

function rate(perHour: number): string {
  return perHour >= 60 ? `${(perHour / 60).toFixed(1)} per minute` : `${perHour.toFixed(perHour < 10 ? 1 : 0)} per hour`
}

function duration(hours: number): string {
  const min = Math.round(hours * 60)
  return min < 60 ? `${min} min` : `${Math.floor(min / 60)} h ${min % 60} min`
}

export function ReviewProgress({ progress }: { progress: Progress }) {
  const { done, flagged, left, perHour } = progress
  return (
    <p className="muted small review-progress" data-testid="review-progress" data-done={done} data-flagged={flagged} data-left={left ?? ''} data-per-hour={perHour === null ? '' : perHour.toFixed(2)} aria-live="polite">
      <strong>{done}</strong> done this session
      {flagged > 0 && (
        <>
          {' '}
          · <strong data-testid="review-progress-flagged">{flagged}</strong> flagged
        </>
      )}{' '}
      · <strong>{left ?? '…'}</strong> left in the queue
      {perHour !== null && (
        <>
          {' '}
          · {rate(perHour)}
          {left !== null && left > 0 && <> (about {duration(left / perHour)} at this pace)</>}
        </>
      )}
    </p>
  )
}

/** Each task's first entry, in order. */
function firstPerTask(entries: readonly ReviewedLabel[]): ReviewedLabel[] {
  const seen = new Set<string>()
  return entries.filter((e) => !seen.has(e.taskId) && seen.add(e.taskId))
}
