import { useQueryClient } from '@tanstack/react-query'
import { useEffect, useRef, useState } from 'react'
import { DEFAULT_SETTINGS, type FlagView, type HistoryLabel, type Reservation, type TaskDetail } from '@shared/api'
import { useApi } from '../api/context'
import { useLabelHistory, useSettings, useTaskDetail } from '../api/queries'
import { useToast } from '../components/Toasts'
import { EmptyState, ErrorState, Loading } from '../components/States'
import { useHotkeys } from '../hooks/useHotkeys'
import { useArmedAfterPaint } from '../hooks/useArmedAfterPaint'
import { CandidateButtons } from '../review/CandidateButtons'
import { ReleaseHold } from '../review/ReleaseHold'
import { FlagDialog } from '../review/FlagDialog'
import { focusHistory, HISTORY_SIZE, HistoryPanel, latestOther } from '../review/HistoryPanel'
import { ReviewProgress, useProgressTitle, useReviewProgress, type Progress } from '../review/ReviewProgress'
import { ShortcutSheet } from '../review/ShortcutSheet'
import { TaskBody } from '../review/TaskBody'
import { useReviewSession } from '../review/session'
import { useCandidateKeys } from '../review/use-candidate-keys'
import { useDwell } from '../review/use-dwell'
import { DwellHint } from '../review/DwellHint'
import { takeClaim } from '../review/claims'
import { useClaimNext, useNextTask } from '../review/use-next-task'
import { useReservation } from '../review/use-reservation'
import { useFlag } from '../review/use-flag'
import { useResolve } from '../review/use-resolve'
import { laterText, useUndo } from '../review/use-undo'
import { markKey, markShown } from '../perf-marks'
import { hrefFor } from '../router'
import { callKey } from '../api/call-keys'
import { LongText, QUESTION_CHARS } from '../components/LongText'
import { clockTime, shortDateTime } from '../components/time-text'

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
  const settings = useSettings()
  // The task an undo just brought back (its detail fetched before the screen moved to it).
  const [undoneTo, setUndoneTo] = useState<string | null>(null)
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
        <HistoryPanel currentTaskId={null} />
      </div>
    )
  }
  // The reading time is known before the task shows: a key must never count under a default the reviewer changed.
  if (detail.isPending || settings.isPending) return <Loading />
  if (detail.isError) return <ErrorState error={detail.error} />
  const dwellMs = settings.data?.dwellMs ?? DEFAULT_SETTINGS.dwellMs
  return <Review key={taskId} detail={detail.data} claimNext={claimNext} progress={progress} dwellMs={dwellMs} returned={undoneTo === taskId} onUndone={setUndoneTo} />
}

interface ReviewProps {
  detail: TaskDetail
  claimNext: () => Promise<string | null>
  progress: Progress
  dwellMs: number
  /** The task came back by an undo: it paints whole at once. */
  returned: boolean
  onUndone: (taskId: string) => void
}

function Review({ detail, claimNext, progress, dwellMs, returned, onUndone }: ReviewProps) {
  const api = useApi()
  const qc = useQueryClient()
  const toast = useToast()
  const { resolve, reopen, busy } = useResolve('escalation')
  const { undo, busy: undoing } = useUndo('escalation')
  const { flag, busy: flagging } = useFlag()
  const history = useLabelHistory(HISTORY_SIZE)
  const session = useReviewSession()
  const me = useSettings().data?.reviewer ?? null
  const ownLabel = (labels: TaskDetail['labels']) => (me === null ? undefined : labels.find((l) => l.reviewer === me && l.label !== null))
  // The reviewer's own label as the task opened (reopened from the history): changing it here is
  // meant. One that appears later came from another tab of theirs, and a key here must not
  // silently replace it.
  const ownAtOpen = useRef(ownLabel(detail.labels)?.id ?? null)
  const [note, setNote] = useState('')
  const [sheet, setSheet] = useState(false)
  const [flagOpen, setFlagOpen] = useState(false)
  const noteRef = useRef<HTMLTextAreaElement>(null)
  const candidates = detail.task.candidates
  const current = detail.labels.find((l) => l.label !== null)?.label ?? null
  const guard = useArmedAfterPaint(detail.task.id, dwellMs)
  const dwell = useDwell(guard, dwellMs)
  // Once a label or a skip has set off for the next task, this one takes no further key: a quick
  // second key would otherwise resolve it again or skip the next one unseen.
  const leaving = useRef(false)

  useEffect(() => markShown(detail.task.id), [detail.task.id])
  // A task opens at its top, wherever the last one was scrolled to (a history row is at the bottom).
  useEffect(() => {
    window.scrollTo(0, 0)
  }, [detail.task.id])

  // Hold the task while it is open so another window or reviewer does not take it unknowingly.
  const heldBy = useReservation(detail)

  const go = (taskId: string | null) => {
    window.location.hash = taskId ? hrefFor('review', taskId) : hrefFor('queue')
  }
  const pick = async (label: string) => {
    if (busy || leaving.current) return
    const own = ownLabel(detail.labels)
    if (own !== undefined && own.id !== ownAtOpen.current && !session.history.some((h) => h.labelId === own.id)) {
      toast({ kind: 'conflict', text: `Not saved: you labeled this task “${own.label}” in another tab. Nothing was replaced; change it there, or reload this task to change it here.` })
      return
    }
    leaving.current = true
    // The next task is reserved while the label is saved (two round trips at once, not one after
    // the other); a label that is not saved releases it again and stays on this task.
    const claiming = claimNext()
    // Someone labeled this task since it was read: nothing to redo here, the reviewer moves on.
    let taken = false
    const given = await resolve(detail, label, note.trim() === '' ? null : note.trim(), () => (taken = true))
    if (given !== null || taken) go(await claiming)
    else {
      leaving.current = false
      void claiming.then((id) => {
        if (id === null) return
        takeClaim(id)
        void api['task.release']({ taskId: id }).catch(() => {})
      })
    }
  }
  const skip = () => {
    if (leaving.current) return
    leaving.current = true
    session.skip(detail.task.id)
    void claimNext().then(go)
  }
  // Review undoes the reviewer's latest escalation label (never Calibrate's, never a ruling) and
  // shows its task; the task open now may be labeled again once its label is undone.
  const undoLast = async () => {
    const t = await undo()
    if (t === null) return
    if (t === detail.task.id) {
      reopen(t)
      leaving.current = false
      return
    }
    // Its detail is fetched before the screen moves, so the task comes back whole (certificate
    // included) rather than through a loading screen.
    await qc.prefetchQuery({ queryKey: callKey('task.detail', t, false), queryFn: () => api['task.detail']({ taskId: t, blind: false }) })
    onUndone(t)
    go(t)
  }
  const canUndo = (history.data ?? []).some((l) => l.live && l.source === 'escalation' && !l.adjudicated)
  const sendFlag = async (reason: string) => {
    if (leaving.current) return
    leaving.current = true
    if (await flag(detail.task.id, reason)) {
      setFlagOpen(false)
      go(await claimNext())
    } else leaving.current = false
  }
  const reopenLatest = () => {
    const t = latestOther(history.data, detail.task.id)
    if (t !== null && !leaving.current) go(t)
  }
  const mine = (history.data ?? []).find((l) => l.taskId === detail.task.id && l.live) ?? null
  // A key or a click on a candidate: either counts only once the task was on screen for the reading time.
  const choose = (c: string) => {
    if (!dwell.admit()) return
    markKey('resolve')
    void pick(c)
  }
  const keys = useCandidateKeys(candidates, choose)

  useHotkeys(
    {
      ...keys.keys,
      // Enter on a focused history row (after `h`) reopens it; elsewhere it is the candidates'.
      Enter: (e) => (e.target instanceof HTMLAnchorElement ? window.location.assign(e.target.href) : keys.keys.Enter(e)),
      Backspace: () => void undoLast(),
      'ctrl+z': () => void undoLast(),
      s: skip,
      f: () => setFlagOpen(true),
      p: reopenLatest,
      h: focusHistory,
      n: () => noteRef.current?.focus(),
      '?': () => setSheet(true)
    },
    !sheet && !flagOpen,
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
          {heldBy && <ReservedBy holder={heldBy} you={heldBy.reviewer === me} />}
          {mine !== null && <OwnLabelNotice label={mine} />}
          {detail.flags.length > 0 && <TaskFlags flags={detail.flags} />}
        </div>
        <div className="review-head-side">
          <ReviewProgress progress={progress} />
          <div className="review-actions">
            <button type="button" className="secondary" data-testid="undo" onClick={() => void undoLast()} disabled={busy || undoing || !canUndo}>
              Undo <kbd>⌫</kbd>
            </button>
            <button type="button" className="secondary" onClick={skip}>
              Skip <kbd>s</kbd>
            </button>
            <button type="button" className="secondary" data-testid="history-open" onClick={focusHistory}>
              History <kbd>h</kbd>
            </button>
            <button type="button" className="secondary" data-testid="flag" onClick={() => setFlagOpen(true)} disabled={flagging} title="Flag: can’t decide (with a reason; not a label)">
              Can’t decide <kbd>f</kbd>
            </button>
            <button type="button" className="secondary" onClick={() => setSheet(true)} aria-label="Keyboard shortcuts">
              <kbd>?</kbd>
            </button>
          </div>
        </div>
      </header>
      {/* The candidates and the note head the transcript's column; the verdict column starts level
          with them rather than below, where a full-width block left its side empty. */}
      <div className="review-grid">
        <div className="review-lead">
          <CandidateButtons candidates={candidates} keys={keys} current={current} disabled={busy} onPick={choose} />
          <DwellHint ms={dwell.tooQuick} />
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
                <span key={l.id} className={`tag tag-${l.source}`} data-testid="task-label">
                  {l.label} · {l.reviewer}
                  {l.note !== null && <span className="label-note" data-testid="label-note"> — “{l.note}”</span>}
                </span>
              ))}
              {detail.gold !== null && <span className="muted"> · gold in the trace: {detail.gold}</span>}
            </p>
          )}
        </div>
        <TaskBody detail={detail} whole={returned} />
      </div>
      <HistoryPanel currentTaskId={detail.task.id} />
      {sheet && <ShortcutSheet onClose={() => setSheet(false)} />}
      {flagOpen && <FlagDialog taskId={detail.task.id} busy={flagging} onSubmit={(r) => void sendFlag(r)} onClose={() => setFlagOpen(false)} />}
    </div>
  )
}

/** Who holds this task: until their label, release or the hold's expiry, a label given here is refused. */
function ReservedBy({ holder, you }: { holder: Reservation; you: boolean }) {
  const until = clockTime(holder.expiresAt)
  if (you) {
    return (
      <p className="notice" data-testid="reserved-by" data-reviewer={holder.reviewer} data-you="true">
        You are reviewing this task in another tab (reserved until {until}). Label it there; a label given here is refused while that tab holds it.
      </p>
    )
  }
  return (
    <p className="notice" data-testid="reserved-by" data-reviewer={holder.reviewer}>
      {holder.reviewer} is reviewing this task (reserved until {until}). A label given here is refused until they finish or
      their hold expires; the task is yours as soon as it is free. <ReleaseHold holder={holder} />
    </p>
  )
}

/**
 * The reviewer's own live label on the task open (reopened from the history, say): a blind one
 * changed here is stored as escalation and leaves the calibration set; one whose task moved on
 * since can no longer be undone.
 */
function OwnLabelNotice({ label }: { label: HistoryLabel }) {
  if (label.movedOn !== null) {
    return (
      <p className="notice" data-testid="review-moved-on">
        Your label “{label.label}” on this task can no longer be undone: the task moved on since — {laterText(label.movedOn)}. A new label of yours
        replaces yours; theirs stands.
      </p>
    )
  }
  if (label.source === 'random' && !label.adjudicated) {
    return (
      <p className="notice" data-testid="review-own-random">
        Your blind label here is “{label.label}” (Calibrate). It belongs to the calibration set: only you, in Calibrate on the same draw, or an adjudicator
        change it — a label given here is refused.
      </p>
    )
  }
  return null
}

/** Who could not decide this task, and why (flags are not labels: the task keeps its state). */
function TaskFlags({ flags }: { flags: FlagView[] }) {
  return (
    <ul className="task-flags small" data-testid="task-flags" data-count={flags.length}>
      {flags.map((f) => (
        <li key={f.id} data-testid="task-flag" data-reviewer={f.reviewer}>
          <span aria-hidden="true">⚑</span> Flagged by <strong>{f.reviewer}</strong> ({shortDateTime(f.at)}): {f.reason}
        </li>
      ))}
    </ul>
  )
}
