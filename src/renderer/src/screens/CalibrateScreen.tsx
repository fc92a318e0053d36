import { useQuery } from '@tanstack/react-query'
import { useEffect, useRef, useState } from 'react'
import { DEFAULT_SETTINGS, type LabelSource, type TaskDetail } from '@shared/api'
import { useApi } from '../api/context'
import { useEngineSettings, useSettings, useTaskDetail } from '../api/queries'
import { EmptyState, ErrorState, Loading } from '../components/States'
import { useArmedAfterPaint } from '../hooks/useArmedAfterPaint'
import { useHotkeys } from '../hooks/useHotkeys'
import { CandidateButtons } from '../review/CandidateButtons'
import { useCandidateKeys } from '../review/use-candidate-keys'
import { useDwell } from '../review/use-dwell'
import { DwellHint } from '../review/DwellHint'
import { TaskBody } from '../review/TaskBody'
import { useResolve } from '../review/use-resolve'
import { useToast } from '../components/Toasts'
import { UndoBar, type BlindCommit } from '../review/UndoBar'
import { useReviewSession } from '../review/session'
import { LongText, QUESTION_CHARS } from '../components/LongText'
import { callKey } from '../api/call-keys'

/** |D_loc| = |C| − round(0.2·|C|) must reach k (docs/engine.md §8.7); λ = auto needs it on half of C. */
export function labelsNeeded(k: number, auto: boolean): number {
  let c = Math.ceil(k / 0.8)
  while (c - Math.round(0.2 * c) < k) c++
  return auto ? 2 * c : c
}

export function CalibrateScreen() {
  const api = useApi()
  const toast = useToast()
  // Bumped on each move to the next task (and each skip): the draw is asked again.
  const [done, setDone] = useState(0)
  // The task the reviewer moved on from: the server closes that labeled draw and draws anew. Any
  // other ask (a refetch after anyone's label) answers the draw on screen, so it can still be changed.
  const [after, setAfter] = useState<string | null>(null)
  const [spotOnly, setSpotOnly] = useState(false)
  const draw = useQuery({
    queryKey: callKey('calibrate.draw', done, spotOnly, after),
    queryFn: () => api['calibrate.draw']({ spotCheckOnly: spotOnly, after }),
    staleTime: Infinity
  })
  const settings = useEngineSettings()
  const reviewerSettings = useSettings()
  const [revealed, setRevealed] = useState<string | null>(null)
  // The task on screen whose blind label the reviewer took back to change it: shown with its
  // verdict (already seen), and the next key replaces the label on the same draw.
  const [changing, setChanging] = useState<string | null>(null)
  // The latest blind commit, offered for undo for three seconds: the same undo as ⌫.
  const [commit, setCommit] = useState<BlindCommit | null>(null)
  const [skipping, setSkipping] = useState(false)
  // Anyone's label refetches the draw (its counts are live): the server answers the open draw
  // until it is labeled, and the task on screen stays pinned until the reviewer moves on, so it
  // never changes under them — even right after their own label, before they read its verdict.
  const round = `${done}:${spotOnly}`
  const fresh = draw.data?.taskId ?? null
  const [pin, setPin] = useState<{ round: string; taskId: string } | null>(null)
  if (fresh !== null && pin?.round !== round) setPin({ round, taskId: fresh })
  const taskId = pin?.round === round ? pin.taskId : fresh
  const given = taskId !== null && changing !== taskId && revealed === taskId
  // A draw labeled before this window showed it (a reload, another window) is moved on from: a fresh
  // screen offers a task to label, never a verdict it did not reveal.
  const stale = draw.data?.labeled === true && draw.data.taskId !== null && revealed !== draw.data.taskId && changing !== draw.data.taskId ? draw.data.taskId : null
  useEffect(() => {
    if (stale === null) return
    setAfter(stale)
    setDone((n) => n + 1)
  }, [stale])
  const detail = useTaskDetail(taskId, !given && changing !== taskId)
  // Undo acts on the task on screen only: its blind label, just committed, is taken back to be
  // replaced on the same draw (a blind label is never simply undone: its task stays in C).
  const undoOnScreen = async () => {
    if (taskId === null || !given) {
      toast({ kind: 'info', text: 'Nothing to undo on this task: Undo changes the label of the task on screen, once you gave it.' })
      return
    }
    setChanging(taskId)
    setRevealed(null)
    setCommit(null)
  }
  useHotkeys({ Backspace: () => void undoOnScreen(), 'ctrl+z': () => void undoOnScreen() })
  const skip = () => {
    if (taskId === null || skipping) return
    setSkipping(true)
    api['calibrate.skip']({ taskId, spotCheckOnly: spotOnly })
      .then(() => {
        setDone((n) => n + 1)
        setRevealed(null)
        setChanging(null)
      })
      .catch((e: unknown) => toast({ kind: 'error', text: `Not skipped: ${String((e as Error).message)}` }))
      .finally(() => setSkipping(false))
  }

  if (draw.isPending || settings.isPending || reviewerSettings.isPending) return <Loading />
  if (draw.isError) return <ErrorState error={draw.error} />
  const auto = settings.data?.budget.kind === 'auto'
  const random = draw.data.randomLabels
  const dwellMs = reviewerSettings.data?.dwellMs ?? DEFAULT_SETTINGS.dwellMs
  return (
    <div className="screen calibrate">
      <header className="screen-header">
        <h1>Calibrate</h1>
        <label className="inline">
          <input type="checkbox" checked={spotOnly} onChange={(e) => setSpotOnly(e.target.checked)} /> spot-check stream only
        </label>
        <button type="button" className="secondary" data-testid="calibrate-undo" onClick={() => void undoOnScreen()}>
          Change this task’s label <kbd>⌫</kbd>
        </button>
        <button
          type="button"
          className="secondary"
          data-testid="calibrate-skip"
          data-skips-left={draw.data.skipsLeft}
          onClick={skip}
          disabled={skipping || taskId === null || given || draw.data.skipsLeft === 0}
          title="Skipped draws are counted per reviewer and capped: skipping hard tasks would leave the calibration set easier than the tasks it certifies."
        >
          Skip ({draw.data.skipsLeft} left)
        </button>
      </header>
      <Progress random={random} auto={auto} unlabeled={draw.data.unlabeled} />
      {taskId === null ? (
        <EmptyState title="Nothing left to draw">
          <p>Every task {spotOnly ? 'in the spot-check stream ' : ''}already has its labels (or yours, with several reviewers per task).</p>
        </EmptyState>
      ) : detail.isPending ? (
        <Loading />
      ) : detail.isError ? (
        <ErrorState error={detail.error} />
      ) : (
        <BlindTask
          key={`${taskId}:${changing === taskId}`}
          detail={detail.data}
          revealed={given}
          changing={changing === taskId}
          dwellMs={dwellMs}
          onLabeled={(label, source) => {
            setRevealed(taskId)
            setChanging(null)
            // The bar follows a blind commit; a label stored as escalation is not one.
            setCommit(source === 'random' ? { taskId, label, at: Date.now() } : null)
          }}
          onNext={() => {
            setAfter(taskId)
            setDone((n) => n + 1)
            setRevealed(null)
            setChanging(null)
            setCommit(null)
          }}
        />
      )}
      {commit !== null && <UndoBar key={commit.at} commit={commit} onClose={() => setCommit(null)} onUndo={undoOnScreen} />}
    </div>
  )
}

function Progress({ random, auto, unlabeled }: { random: number; auto: boolean; unlabeled: number }) {
  const start = labelsNeeded(128, auto)
  const more = Math.max(0, start - random)
  return (
    <section className="panel calibrate-progress" data-testid="calibrate-progress" data-random={random} data-unlabeled={unlabeled}>
      <p>
        <strong>{random}</strong> tasks labeled blind so far · {unlabeled} left to draw for you.{' '}
        {more > 0 ? (
          <>
            The certificate can start acting after about <strong>{more}</strong> more labels{auto ? ' (λ = auto uses half of them to choose the budget)' : ''}.
          </>
        ) : (
          <>The certificate has enough labels to act; more labels tighten its bounds.</>
        )}
      </p>
      <ul className="k-progress">
        {[128, 256, 512].map((k) => {
          const need = labelsNeeded(k, auto)
          return (
            <li key={k}>
              <span>k = {k}</span>
              <progress max={need} value={Math.min(random, need)} aria-label={`labels for k = ${k}`} />
              <span className="muted">
                {Math.min(random, need)} / {need}
              </span>
            </li>
          )
        })}
      </ul>
    </section>
  )
}

interface BlindTaskProps {
  detail: TaskDetail
  revealed: boolean
  changing: boolean
  /** The reading time before a label counts (Settings). */
  dwellMs: number
  onLabeled: (label: string, source: LabelSource) => void
  onNext: () => void
}

function BlindTask({ detail, revealed, changing, dwellMs, onLabeled, onNext }: BlindTaskProps) {
  const { resolve, busy } = useResolve('random')
  // The source the store kept for this window's label here: escalation once the verdict was seen.
  const [stored, setStored] = useState<LabelSource | null>(null)
  const session = useReviewSession()
  const guard = useArmedAfterPaint(detail.task.id, dwellMs)
  const dwell = useDwell(guard, dwellMs)
  // From the first key on, this task takes no other label (a quick second key is a duplicate).
  const labeling = useRef(false)
  // This window's label of the task; with several reviewers per task the others' show once it is committed.
  const mine = [...session.history].reverse().find((h) => h.taskId === detail.task.id) ?? null
  const others = revealed ? detail.labels.filter((l) => l.id !== mine?.labelId && l.label !== null) : []
  const candidates = detail.task.candidates
  const pick = async (label: string) => {
    if (busy || revealed || labeling.current) return
    labeling.current = true
    const given = await resolve(detail, label, null)
    if (given !== null) {
      setStored(given.source)
      onLabeled(label, given.source)
    } else labeling.current = false
  }
  // A key or a click on a candidate: either counts only once the task was on screen for the reading
  // time; once the label is committed the task takes no other, so nothing is hinted then.
  const choose = (c: string) => {
    if (revealed || labeling.current || !dwell.admit()) return
    void pick(c)
  }
  const keys = useCandidateKeys(candidates, choose)
  useHotkeys(
    {
      ...keys.keys,
      // Once the label is committed, Enter (or Space) moves on; before, Enter labels only the
      // candidate the reviewer moved the focus to — never a blind label they did not choose. A held
      // key's repeats move on from nothing: the reviewer reads the verdict the label revealed.
      Enter: (e) => (revealed ? !e.repeat && onNext() : keys.keys.Enter(e)),
      ' ': (e) => revealed && !e.repeat && onNext()
    },
    true,
    guard.isArmed
  )
  return (
    <div className="review" data-testid="review-task" data-task-id={detail.task.id} ref={guard.rootRef}>
      <p className="muted small">
        <span className="mono">{detail.task.id}</span>
        {detail.task.group && <> · {detail.task.group}</>} · drawn uniformly at random
      </p>
      <h2 className="question">{detail.task.question === null ? '(no question text)' : <LongText text={detail.task.question} limit={QUESTION_CHARS} />}</h2>
      {changing && !revealed && (
        <p className="notice" data-testid="calibrate-changing">
          Changing your blind label on the same draw: the label you give now replaces it, and the task stays in the calibration set.
        </p>
      )}
      {revealed && stored === 'escalation' && (
        <p className="notice" data-testid="calibrate-escalated">
          Stored as <strong>escalation</strong>, not as a blind label: you had seen this task’s verdict, so it left the calibration set.
        </p>
      )}
      <CandidateButtons candidates={candidates} keys={keys} current={revealed ? (mine?.label ?? detail.labels[0]?.label ?? null) : null} disabled={busy || revealed} onPick={choose} />
      {!revealed && <DwellHint ms={dwell.tooQuick} />}
      {others.length > 0 && (
        <p className="small" data-testid="calibrate-others">
          Other reviewers:{' '}
          {others.map((l, i) => (
            <span key={l.id} data-testid="calibrate-other-label" data-reviewer={l.reviewer} data-label={l.label ?? ''}>
              {i > 0 && ' · '}
              {l.reviewer}: <strong>{l.label}</strong>
            </span>
          ))}
        </p>
      )}
      {revealed && (
        <p className="actions">
          <button type="button" onClick={onNext} autoFocus>
            Next task <kbd>Enter</kbd>
          </button>
        </p>
      )}
      <TaskBody detail={detail} />
    </div>
  )
}
