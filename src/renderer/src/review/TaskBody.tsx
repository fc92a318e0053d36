import { memo, useDeferredValue } from 'react'
import type { TaskDetail } from '@shared/api'
import { CertificatePanel } from './CertificatePanel'
import { DecisionAnswer } from './DecisionAnswer'
import { LeaveOneOut } from './LeaveOneOut'
import { PosteriorChart } from './PosteriorChart'
import { SeatWeightsChart } from './SeatWeightsChart'
import { StanceMatrix } from './StanceMatrix'
import { Transcript } from './Transcript'

/**
 * The transcript beside the engine's verdict. While `blind` (Calibrate), the verdict column
 * shows nothing of the posterior, weights or gap: the reviewer must not be anchored by them.
 */
export const TaskBody = memo(function TaskBody({ detail, whole = false }: { detail: TaskDetail; whole?: boolean }) {
  // The transcript paints first; the charts (the heaviest part) follow in a background render, so
  // resolve → next shows the next task without waiting for them. `whole`: a task coming back (an
  // undo) paints with its charts, so its certificate does not blink out and back.
  const sidePanels = useDeferredValue<TaskDetail | null>(detail, whole ? detail : null)
  const v = detail.verdict
  const weights: Record<string, number> = {}
  for (const s of v?.seats ?? []) if (s.weight !== null) weights[s.seat] = s.weight
  const K = detail.task.candidates.length
  return (
    <div className="review-body">
      <div className="review-main">
        <StanceMatrix moves={detail.moves} weights={weights} />
        <Transcript
          moves={detail.moves.map((m) => ({ id: m.id, round: m.round, seat: m.seat, force: m.force, answer: m.answer, target: m.target, confidence: m.confidence, text: m.text }))}
          weights={weights}
        />
      </div>
      <aside className="review-side">
        {sidePanels === null ? (
          <section className="panel" aria-busy="true">
            <h2>Posterior</h2>
          </section>
        ) : detail.blind || v === null ? (
          detail.blind ? (
            <section className="panel" data-testid="verdict-hidden">
              <h2>Verdict hidden</h2>
              <p className="muted">The engine’s posterior, seat weights and certificate stay hidden until your label is committed, so they cannot anchor it.</p>
            </section>
          ) : (
            <section className="panel">
              <h2>No verdict yet</h2>
              <p className="muted">No fit covers this task yet: fit from Settings or with <code>arbiter fit</code>.</p>
            </section>
          )
        ) : (
          <>
            <DecisionAnswer verdict={v} candidates={detail.task.candidates} />
            <section className="panel" aria-labelledby="posterior-heading">
              <h2 id="posterior-heading">
                Final posterior <span className="muted">({v.method}, whole debate)</span>
              </h2>
              <PosteriorChart candidates={detail.task.candidates} posterior={v.posterior} answer={v.answer} />
            </section>
            {v.decision && (
              <CertificatePanel
                cert={{
                  decision: v.decision.decision,
                  threshold: v.decision.threshold,
                  bound: v.rounds.map((r) => r.bound),
                  stopRound: v.decision.stopRound,
                  gap: v.decision.gap,
                  why: v.decision.why,
                  bestRound: v.decision.why?.round ?? null,
                  lastRealRound: detail.moves.reduce<number | null>((last, m) => (last === null || m.round > last ? m.round : last), null),
                  reason: v.decision.reason,
                  calibration: v.decision.calibration
                }}
              />
            )}
            <section className="panel" aria-labelledby="seats-heading">
              <h2 id="seats-heading">Seat weights</h2>
              <SeatWeightsChart
                seats={v.seats.map((s) => ({
                  seat: s.seat,
                  model: s.model,
                  weight: s.weight ?? 0,
                  reliability: s.reliability ?? 1 / K,
                  evidence: s.evidence,
                  voteEvidence: s.voteEvidence,
                  adversarial: s.adversarial
                }))}
                unit={v.voteUnit}
              />
              <LeaveOneOut seats={v.seats} answer={v.answer} />
            </section>
          </>
        )}
      </aside>
    </div>
  )
})
