import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import type { RefitChange } from '@shared/api'
import { actedShare, percent, refitMoves } from '@shared/refit-change'
import { useApi } from '../api/context'
import { hrefFor } from '../router'
import { shortLabel } from './LongText'
import { callKey } from '../api/call-keys'

/** The most labels the list beside a summary fetches (labels.recent's own cap is 500). */
const LIST_LIMIT = 500

/**
 * What a refit changed, in a sentence: the acted share and the queue from what to what (each fit's
 * own counts), and the labels given since the fit before it, with a link that lists them.
 */
export function RefitSummary({ change, testId, title, onDismiss }: { change: RefitChange; testId: string; title: string; onDismiss?: () => void }) {
  const [listed, setListed] = useState(false)
  const { before, after, labelsSince } = change
  const moves = refitMoves(change)
  return (
    <section
      className="panel refit-summary"
      role="status"
      aria-label={title}
      data-testid={testId}
      data-fit-id={after.fitId}
      data-acted-before={before === null ? '' : actedShare(before)}
      data-acted-after={actedShare(after)}
      data-queue-before={before?.deferred ?? ''}
      data-queue-after={after.deferred}
      data-labels-since={labelsSince ?? ''}
      data-notable={String(moves.notable)}
    >
      <h2>{title}</h2>
      {before === null ? (
        <p>
          It acts on <strong>{percent(actedShare(after))}</strong> of the {after.decided} tasks it decided; <strong>{after.deferred}</strong> wait in the queue. There was no
          fit before it to compare with.
        </p>
      ) : (
        <p>
          The acted share went from <strong>{percent(actedShare(before))}</strong> to <strong>{percent(actedShare(after))}</strong> ({signed(moves.actedPoints!, 1)} points),
          and the queue from <strong>{before.deferred}</strong> to <strong>{after.deferred}</strong> tasks ({queueWords(moves.queueChange!)}).{' '}
          {labelsSince === 0 ? (
            'No label was given since the previous fit.'
          ) : (
            <>
              It learned from{' '}
              <a
                href="#labels-since"
                data-testid="refit-labels-link"
                aria-expanded={listed}
                onClick={(e) => {
                  e.preventDefault()
                  setListed((x) => !x)
                }}
              >
                {labelsSince} {labelsSince === 1 ? 'label' : 'labels'} given since the previous fit
              </a>
              .
            </>
          )}
        </p>
      )}
      {listed && before !== null && <LabelsSince since={before.createdAt} until={after.createdAt} count={labelsSince ?? 0} />}
      {onDismiss && (
        <div className="actions">
          <button type="button" className="small" onClick={onDismiss} data-testid="refit-summary-dismiss">
            Dismiss
          </button>
        </div>
      )}
    </section>
  )
}

/** The live labels recorded between the two fits, newest first, each a link to its task. */
function LabelsSince({ since, until, count }: { since: string; until: string; count: number }) {
  const api = useApi()
  const recent = useQuery({ queryKey: callKey('labels.recent', LIST_LIMIT), queryFn: () => api['labels.recent']({ limit: LIST_LIMIT }) })
  if (recent.isPending) return <p className="muted small">Loading the labels…</p>
  if (recent.isError) return <p className="error-text small">The labels could not be read: {recent.error.message}</p>
  const rows = recent.data.filter((l) => l.live && l.label !== null && l.at > since && l.at <= until)
  return (
    <div className="refit-labels">
      {count > rows.length && <p className="muted small">The {rows.length} most recent of them:</p>}
      <ul>
        {rows.map((l) => (
          <li key={l.id} data-testid="refit-label" data-task-id={l.taskId}>
            <a href={hrefFor('review', l.taskId)} className="mono">
              {l.taskId}
            </a>{' '}
            → <strong>{shortLabel(l.label!, 80)}</strong> <span className="muted small">({l.source}, {l.reviewer}, {new Date(l.at).toLocaleString()})</span>
          </li>
        ))}
      </ul>
    </div>
  )
}

function signed(x: number, digits: number): string {
  const s = Math.abs(x).toFixed(digits)
  return x > 0 ? `+${s}` : x < 0 ? `−${s}` : s
}

function queueWords(change: number): string {
  if (change === 0) return 'unchanged'
  if (!Number.isFinite(change)) return 'it was empty'
  return `${signed(100 * change, 1)} %`
}
