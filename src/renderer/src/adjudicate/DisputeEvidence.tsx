import { useTaskDetail } from '../api/queries'
import { ErrorState } from '../components/States'
import { PosteriorChart } from '../review/PosteriorChart'
import { Transcript } from '../review/Transcript'

/**
 * What a ruling rests on, beside the labels in dispute: the engine's final posterior and the debate
 * itself, drawn by Review's own components so both screens show a task the same way.
 */
export function DisputeEvidence({ taskId }: { taskId: string }) {
  const detail = useTaskDetail(taskId)
  if (detail.isPending) {
    return (
      <div className="adjudicate-evidence" data-testid="adjudicate-evidence" aria-busy="true">
        <p className="muted small">Loading the debate…</p>
      </div>
    )
  }
  if (detail.isError) return <ErrorState error={detail.error} />
  const d = detail.data
  const v = d.verdict
  const weights: Record<string, number> = {}
  for (const s of v?.seats ?? []) if (s.weight !== null) weights[s.seat] = s.weight
  return (
    <div className="adjudicate-evidence" data-testid="adjudicate-evidence" data-task-id={taskId}>
      <section aria-labelledby={`adj-post-${taskId}`}>
        <h3 id={`adj-post-${taskId}`}>
          Final posterior {v !== null && <span className="muted">({v.method}, whole debate)</span>}
        </h3>
        {v === null ? (
          <p className="muted small">No fit covers this task yet.</p>
        ) : (
          <PosteriorChart candidates={d.task.candidates} posterior={v.posterior} answer={v.answer} />
        )}
      </section>
      <section className="adjudicate-transcript" aria-label="Transcript">
        <h3>Transcript</h3>
        <Transcript
          moves={d.moves.map((m) => ({ id: m.id, round: m.round, seat: m.seat, force: m.force, answer: m.answer, target: m.target, confidence: m.confidence, text: m.text }))}
          weights={weights}
        />
      </section>
    </div>
  )
}
