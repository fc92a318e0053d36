import { useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import type { AwaitingTaskView } from '@shared/api'
import { ApiError } from '@shared/errors'
import { useApi } from '../api/context'
import { ADJUDICATION_PAGE, useAdjudicationList } from '../api/team-queries'
import { EmptyState, ErrorState, Loading } from '../components/States'
import { TableHead } from '../components/TableHead'
import { useToast } from '../components/Toasts'
import { hrefFor } from '../router'
import { LongText, QUESTION_CHARS } from '../components/LongText'
import { callKey } from '../api/call-keys'
import { DisputeEvidence } from '../adjudicate/DisputeEvidence'

/**
 * Adjudicate: the tasks whose reviewers disagree, each with every label and who gave it, beside
 * the task's posterior and transcript.
 * The adjudicator's pick is recorded as an adjudicated label: it becomes the task's label.
 */
export function AdjudicateScreen() {
  const [page, setPage] = useState(0)
  const list = useAdjudicationList(page)
  if (list.isPending) return <Loading />
  if (list.isError) return <ErrorState error={list.error} />
  const { rows, total, canAdjudicate } = list.data
  const pages = Math.max(1, Math.ceil(total / ADJUDICATION_PAGE))
  return (
    <div className="screen adjudicate" data-testid="adjudicate" data-total={total}>
      <header className="screen-header">
        <h1>Adjudicate</h1>
        <p className="muted small" data-testid="adjudicate-total">
          {total} {total === 1 ? 'task awaits' : 'tasks await'} adjudication
        </p>
      </header>
      {!canAdjudicate && (
        <p className="notice" data-testid="adjudicate-not-allowed">
          Only the team’s adjudicators may rule on a disagreement (Settings → Team).
        </p>
      )}
      {total === 0 ? (
        <EmptyState title="No disagreements">
          <p>
            When reviewers label a task differently (with several reviewers per task, once all of them have labeled it in{' '}
            <a href={hrefFor('calibrate')}>Calibrate</a>), it waits here for a ruling.
          </p>
        </EmptyState>
      ) : (
        <>
          {rows.map((t) => (
            <Disagreement key={t.taskId} task={t} allowed={canAdjudicate} />
          ))}
          {pages > 1 && (
            <p className="actions">
              <button type="button" data-testid="adjudicate-prev" disabled={page === 0} onClick={() => setPage(page - 1)}>
                Previous
              </button>
              <span className="muted">
                page {page + 1} of {pages}
              </span>
              <button type="button" data-testid="adjudicate-next" disabled={page + 1 >= pages} onClick={() => setPage(page + 1)}>
                Next
              </button>
            </p>
          )}
        </>
      )}
    </div>
  )
}

function Disagreement({ task, allowed }: { task: AwaitingTaskView; allowed: boolean }) {
  const api = useApi()
  const qc = useQueryClient()
  const toast = useToast()
  const [note, setNote] = useState('')
  const [busy, setBusy] = useState(false)
  const votes = (c: string) => task.labels.filter((l) => l.label === c).map((l) => l.reviewer)

  const rule = async (label: string) => {
    setBusy(true)
    try {
      await api['adjudicate.resolve']({ taskId: task.taskId, label, expectedVersion: task.version, note: note.trim() === '' ? null : note.trim() })
      toast({ kind: 'info', text: `Adjudicated ${task.taskId}: “${label}”.` })
    } catch (e) {
      const conflict = e instanceof ApiError && e.code === 'conflict'
      toast({ kind: conflict ? 'conflict' : 'error', text: `Not saved: ${e instanceof Error ? e.message : String(e)}` })
    } finally {
      setBusy(false)
      void qc.invalidateQueries({ queryKey: callKey('adjudicate.list') })
    }
  }

  return (
    <section className="panel adjudicate-task" data-testid="adjudicate-task" data-task-id={task.taskId} aria-labelledby={`adj-${task.taskId}`}>
      <div className="adjudicate-ruling">
        <h2 id={`adj-${task.taskId}`} className="question">
          {task.question === null ? '(no question text)' : <LongText text={task.question} limit={QUESTION_CHARS} />}
        </h2>
        <p className="muted small">
          <a className="mono" href={hrefFor('review', task.taskId)}>
            {task.taskId}
          </a>
          {task.group && <> · {task.group}</>}
        </p>
        <table className="data" data-testid="adjudicate-labels">
          <TableHead columns={['reviewer', 'label', 'source', 'note']} />
          <tbody>
            {task.labels.map((l) => (
              <tr key={l.id} data-testid="adjudicate-label" data-reviewer={l.reviewer} data-label={l.label ?? ''}>
                <th scope="row">{l.reviewer}</th>
                <td>{l.label}</td>
                <td>{l.source}</td>
                <td>{l.note ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <label className="field">
          <span>Note (optional, kept with the ruling)</span>
          <input data-testid="adjudicate-note" value={note} maxLength={4000} disabled={!allowed || busy} onChange={(e) => setNote(e.target.value)} />
        </label>
        <div className="candidates" role="group" aria-label="Rule with a candidate">
          {task.candidates.map((c, i) => (
            <button
              key={`${i}:${c}`}
              type="button"
              className="candidate"
              data-testid="adjudicate-pick"
              data-candidate={c}
              disabled={!allowed || busy}
              onClick={() => void rule(c)}
            >
              <span className="candidate-text">{c}</span>
              {votes(c).length > 0 && <span className="muted small"> ({votes(c).join(', ')})</span>}
            </button>
          ))}
        </div>
      </div>
      <DisputeEvidence taskId={task.taskId} />
    </section>
  )
}
