import type { HistoryLabel } from '@shared/api'
import { useLabelHistory } from '../api/queries'
import { shortLabel } from '../components/LongText'
import { clockTime } from '../components/time-text'
import { hrefFor } from '../router'
import { laterText } from './use-undo'

export const HISTORY_SIZE = 20

/** Where a label stands now: live, moved on (undo can no longer take it back), undone or replaced. */
function status(l: HistoryLabel): { text: string; kind: 'live' | 'moved-on' | 'gone' } {
  if (!l.live) return { text: 'undone or replaced', kind: 'gone' }
  if (l.movedOn !== null) return { text: `moved on: ${laterText(l.movedOn)}`, kind: 'moved-on' }
  return { text: 'live', kind: 'live' }
}

/**
 * The reviewer's last twenty labels across reloads and windows, from the store:
 * one click reopens a task in Review (`p` reopens the latest one not open now). Item 4's rules
 * apply there: a blind label changed after its reveal is stored as escalation, and a label whose
 * task moved on is marked here — undo can no longer take it back.
 */
export function HistoryPanel({ currentTaskId }: { currentTaskId: string | null }) {
  const history = useLabelHistory(HISTORY_SIZE)
  const rows = history.data ?? []
  return (
    <section className="panel history" aria-labelledby="history-heading" data-testid="history-panel">
      <h2 id="history-heading">
        Your last labels <span className="muted small">(click or Enter reopens one · <kbd>p</kbd> the latest · <kbd>h</kbd> comes here)</span>
      </h2>
      {rows.length === 0 ? (
        <p className="muted small">{history.isPending ? 'Loading…' : 'No labels of yours yet.'}</p>
      ) : (
        <ol>
          {rows.map((l) => {
            const s = status(l)
            return (
              <li
                key={l.id}
                className={`history-${s.kind}${l.taskId === currentTaskId ? ' current' : ''}`}
                data-testid="history-item"
                data-task-id={l.taskId}
                data-label-id={l.id}
                data-source={l.source}
                data-live={String(l.live)}
                data-moved-on={String(l.movedOn !== null)}
              >
                <a href={hrefFor('review', l.taskId)} title={l.question === null ? undefined : shortLabel(l.question, 400)}>
                  <span className="mono">{l.taskId}</span> → <strong>{shortLabel(l.label ?? '')}</strong>
                </a>{' '}
                <span className={`tag tag-${l.source}`}>{l.adjudicated ? 'ruling' : l.source}</span>{' '}
                {l.note !== null && (
                  <span className="history-note small" data-testid="history-note" title={shortLabel(l.note, 400)}>
                    “{shortLabel(l.note)}”{' '}
                  </span>
                )}
                <span className={s.kind === 'moved-on' ? 'history-status warn' : 'history-status muted'}>{s.text}</span>{' '}
                <time className="muted small" dateTime={l.at}>
                  {clockTime(l.at)}
                </time>
              </li>
            )
          })}
        </ol>
      )}
    </section>
  )
}

/** `h`: scrolls to the history and puts the focus on its newest row (Tab moves on, Enter reopens). */
export function focusHistory(): void {
  const panel = document.getElementById('history-heading')?.closest('section')
  panel?.scrollIntoView({ block: 'nearest' })
  panel?.querySelector<HTMLAnchorElement>('li a')?.focus({ preventScroll: true })
}

/** The task `p` reopens: the newest label's task that is not the one open now. */
export function latestOther(rows: readonly HistoryLabel[] | undefined, currentTaskId: string | null): string | null {
  return (rows ?? []).find((l) => l.taskId !== currentTaskId)?.taskId ?? null
}
