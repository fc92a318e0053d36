import { useEffect, useRef, useState } from 'react'
import type { TaskDetail } from '@shared/api'
import { useApi } from '../api/context'
import { useTaskDetail } from '../api/loop-queries'
import { EmptyState, ErrorState, Loading } from '../components/States'
import { useHotkeys } from '../hooks/useHotkeys'
import { CandidateButtons, indexForKey } from '../review/CandidateButtons'
import { RecentDecisions } from '../review/RecentDecisions'
import { ShortcutSheet } from '../review/ShortcutSheet'
import { TaskBody } from '../review/TaskBody'
import { useReviewSession } from '../review/session'
import { useNextTask } from '../review/use-next-task'
import { useResolve } from '../review/use-resolve'
import { markKey, markShown } from '../perf-marks'
import { hrefFor } from '../router'

export function ReviewScreen({ taskId }: { taskId: string | null }) {
  const next = useNextTask(taskId)
  useEffect(() => {
    // Opening Review with no task picks the queue's first.
    if (taskId === null && next !== null) window.location.replace(hrefFor('review', next))
  }, [taskId, next])
  const detail = useTaskDetail(taskId)

  if (taskId === null) {
    return (
      <div className="screen">
        <header className="screen-header">
          <h1>Review</h1>
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
  return <Review key={taskId} detail={detail.data} next={next} />
}

function Review({ detail, next }: { detail: TaskDetail; next: string | null }) {
  const api = useApi()
  const { resolve, undo, busy } = useResolve('escalation')
  const session = useReviewSession()
  const [focused, setFocused] = useState(0)
  const [note, setNote] = useState('')
  const [sheet, setSheet] = useState(false)
  const noteRef = useRef<HTMLTextAreaElement>(null)
  const candidates = detail.task.candidates
  const current = detail.labels.find((l) => l.label !== null)?.label ?? null

  useEffect(() => markShown(detail.task.id), [detail.task.id])

  // Hold the task while it is open so another window or reviewer does not take it unknowingly.
  useEffect(() => {
    void api['task.reserve']({ taskId: detail.task.id }).catch(() => {})
    return () => void api['task.release']({ taskId: detail.task.id }).catch(() => {})
  }, [api, detail.task.id])

  const go = (taskId: string | null) => {
    window.location.hash = taskId ? hrefFor('review', taskId) : hrefFor('queue')
  }
  const pick = async (label: string) => {
    if (busy) return
    if (await resolve(detail, label, note.trim() === '' ? null : note.trim())) go(next)
  }

  useHotkeys(
    {
      ...Object.fromEntries(
        ['1', '2', '3', '4', '5', '6', '7', '8', '9', '0'].map((k) => [
          k,
          () => {
            const i = indexForKey(k)
            if (i === null || i >= candidates.length) return
            markKey('resolve')
            void pick(candidates[i])
          }
        ])
      ),
      ArrowRight: () => setFocused((f) => Math.min(candidates.length - 1, f + 1)),
      ArrowDown: () => setFocused((f) => Math.min(candidates.length - 1, f + 1)),
      ArrowLeft: () => setFocused((f) => Math.max(0, f - 1)),
      ArrowUp: () => setFocused((f) => Math.max(0, f - 1)),
      Enter: () => void pick(candidates[focused]),
      Backspace: () => void undo().then((t) => t && go(t)),
      'ctrl+z': () => void undo().then((t) => t && go(t)),
      s: () => {
        session.skip(detail.task.id)
        go(next)
      },
      n: () => noteRef.current?.focus(),
      '?': () => setSheet(true)
    },
    !sheet
  )

  return (
    <div className="screen review" data-testid="review-task" data-task-id={detail.task.id}>
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
          <h1 className="question">{detail.task.question ?? '(no question text)'}</h1>
          {detail.reservedByOther && detail.reservation && (
            <p className="notice" data-testid="reserved-by" data-reviewer={detail.reservation.reviewer}>
              {detail.reservation.reviewer} has this task open; a label you give now may conflict with theirs.
            </p>
          )}
        </div>
        <div className="review-actions">
          <button type="button" className="secondary" data-testid="undo" onClick={() => void undo().then((t) => t && go(t))} disabled={busy || session.history.length === 0}>
            Undo <kbd>⌫</kbd>
          </button>
          <button type="button" className="secondary" onClick={() => (session.skip(detail.task.id), go(next))}>
            Skip <kbd>s</kbd>
          </button>
          <button type="button" className="secondary" onClick={() => setSheet(true)} aria-label="Keyboard shortcuts">
            <kbd>?</kbd>
          </button>
        </div>
      </header>
      <CandidateButtons candidates={candidates} focused={focused} current={current} disabled={busy} onPick={(c) => void pick(c)} />
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
