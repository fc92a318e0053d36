import { useEffect, useRef, useState } from 'react'
import type { Reservation, TaskDetail } from '@shared/api'
import { useTaskDetail } from '../api/loop-queries'
import { EmptyState, ErrorState, Loading } from '../components/States'
import { useHotkeys } from '../hooks/useHotkeys'
import { useArmedAfterPaint } from '../hooks/useArmedAfterPaint'
import { CandidateButtons } from '../review/CandidateButtons'
import { RecentDecisions } from '../review/RecentDecisions'
import { ReleaseHold } from '../review/ReleaseHold'
import { ReviewProgress, useProgressTitle, useReviewProgress, type Progress } from '../review/ReviewProgress'
import { ShortcutSheet } from '../review/ShortcutSheet'
import { TaskBody } from '../review/TaskBody'
import { useReviewSession } from '../review/session'
import { useCandidateKeys } from '../review/use-candidate-keys'
import { useClaimNext, useNextTask } from '../review/use-next-task'
import { useReservation } from '../review/use-reservation'
import { useResolve } from '../review/use-resolve'
import { markKey, markShown } from '../perf-marks'
import { hrefFor } from '../router'
import { LongText, QUESTION_CHARS } from '../components/LongText'

export function ReviewScreen({ taskId }: { taskId: string | null }) {
  const next = useNextTask(taskId)
  const claimNext = useClaimNext(taskId)
  const claiming = useRef(false)
  useEffect(() => {
    // Opening Review with no task picks the queue's first that no one else holds (one claim at a time).
    if (taskId !== null || next === null || claiming.current) return
    claiming.current = true
    void claimNext()
      .then((id) => id !== null && window.location.replace(hrefFor('review', id)))
      .finally(() => (claiming.current = false))
  }, [taskId, next, claimNext])
  const detail = useTaskDetail(taskId)
  const progress = useReviewProgress()
  useProgressTitle(progress)

  if (taskId === null) {
    return (
      <div className="screen">
        <header className="screen-header">
          <h1>Review</h1>
          <ReviewProgress progress={progress} />
        </header>
        <EmptyState title="No task open">
          <p>
            The <a href={hrefFor('queue')}>queue</a> is empty or still loading; open a deferred task from it to review it.
          </p>
        </EmptyState>
      </div>
    )
  }
  if (detail.isPending) return <Loading />
  if (detail.isError) return <ErrorState error={detail.error} />
  return <Review key={taskId} detail={detail.data} claimNext={claimNext} progress={progress} />
}

function Review({ detail, claimNext, progress }: { detail: TaskDetail; claimNext: () => Promise<string | null>; progress: Progress }) {
  const { resolve, undo, busy } = useResolve('escalation')
  const session = useReviewSession()
  const [note, setNote] = useState('')
  const [sheet, setSheet] = useState(false)
  const noteRef = useRef<HTMLTextAreaElement>(null)
  const candidates = detail.task.candidates
  const current = detail.labels.find((l) => l.label !== null)?.label ?? null
  const guard = useArmedAfterPaint(detail.task.id)
  // Once a label or a skip has set off for the next task, this one takes no further key: a quick
  // second key would otherwise resolve it again (issue #16 item 3) or skip the next one unseen.
  const leaving = useRef(false)

  useEffect(() => markShown(detail.task.id), [detail.task.id])

  // Hold the task while it is open so another window or reviewer does not take it unknowingly.
  const heldBy = useReservation(detail)

  const go = (taskId: string | null) => {
    window.location.hash = taskId ? hrefFor('review', taskId) : hrefFor('queue')
  }
  const pick = async (label: string) => {
    if (busy || leaving.current) return
    leaving.current = true
    if (await resolve(detail, label, note.trim() === '' ? null : note.trim())) go(await claimNext())
    else leaving.current = false
  }
  const skip = () => {
    if (leaving.current) return
    leaving.current = true
    session.skip(detail.task.id)
    void claimNext().then(go)
  }
  const keys = useCandidateKeys(candidates, (c) => {
    markKey('resolve')
    void pick(c)
  })

  useHotkeys(
    {
      ...keys.keys,
      Backspace: () => void undo().then((t) => t && go(t)),
      'ctrl+z': () => void undo().then((t) => t && go(t)),
      s: skip,
      n: () => noteRef.current?.focus(),
      '?': () => setSheet(true)
    },
    !sheet,
    guard.isArmed
  )

  return (
    <div className="screen review" data-testid="review-task" data-task-id={detail.task.id} ref={guard.rootRef}>
      <header className="review-header">
        <div>
          <p className="muted small">
            <span className="mono">{detail.task.id}</span>
            {detail.task.group && <> · {detail.task.group}</>}
            {detail.state && <> · {detail.state === 'human' ? 'labeled' : detail.state === 'act' ? 'acted' : 'deferred'}</>}
            {detail.verdict?.previous && detail.verdict.decision && detail.verdict.previous.decision !== detail.verdict.decision.decision && (
              <> · was {detail.verdict.previous.decision === 'act' ? 'acted' : 'deferred'} under the previous fit</>
            )}
          </p>
          <h1 className="question">{detail.task.question === null ? '(no question text)' : <LongText text={detail.task.question} limit={QUESTION_CHARS} />}</h1>
          {heldBy && <ReservedBy holder={heldBy} />}
        </div>
        <div className="review-head-side">
          <ReviewProgress progress={progress} />
          <div className="review-actions">
            <button type="button" className="secondary" data-testid="undo" onClick={() => void undo().then((t) => t && go(t))} disabled={busy || session.history.length === 0}>
              Undo <kbd>⌫</kbd>
            </button>
            <button type="button" className="secondary" onClick={skip}>
              Skip <kbd>s</kbd>
            </button>
            <button type="button" className="secondary" onClick={() => setSheet(true)} aria-label="Keyboard shortcuts">
              <kbd>?</kbd>
            </button>
          </div>
        </div>
      </header>
      <CandidateButtons candidates={candidates} keys={keys} current={current} disabled={busy} onPick={(c) => void pick(c)} />
      <label className="note">
        <span className="muted small">
          Note <kbd>n</kbd> (saved with your label)
        </span>
        <textarea ref={noteRef} rows={1} value={note} maxLength={4000} onChange={(e) => setNote(e.target.value)} onKeyDown={(e) => e.key === 'Escape' && e.currentTarget.blur()} />
      </label>
      {detail.labels.length > 0 && (
        <p className="labels small">
          Labeled:{' '}
          {detail.labels.map((l) => (
            <span key={l.id} className={`tag tag-${l.source}`}>
              {l.label} · {l.reviewer}
            </span>
          ))}
          {detail.gold !== null && <span className="muted"> · gold in the trace: {detail.gold}</span>}
        </p>
      )}
      <TaskBody detail={detail} />
      <RecentDecisions currentTaskId={detail.task.id} />
      {sheet && <ShortcutSheet onClose={() => setSheet(false)} />}
    </div>
  )
}

/** Who holds this task: until their label, release or the hold's expiry, a label given here is refused. */
function ReservedBy({ holder }: { holder: Reservation }) {
  const until = new Date(holder.expiresAt).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })
  return (
    <p className="notice" data-testid="reserved-by" data-reviewer={holder.reviewer}>
      {holder.reviewer} is reviewing this task (reserved until {until}). A label given here is refused until they finish or
      their hold expires; the task is yours as soon as it is free. <ReleaseHold holder={holder} />
    </p>
  )
}
