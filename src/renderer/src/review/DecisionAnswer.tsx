import type { Verdict } from '@shared/api'
import { PosteriorChart, pct } from './PosteriorChart'

/**
 * The round the decision's answer was read at: the stop round τ when the engine acted; for a
 * deferral, the draft answer at the certificate's last round (docs/engine.md §8.8). Null when the
 * fit had no certificate (its answer is then the full trace's).
 */
export function decisionRound(v: Verdict): number | null {
  const d = v.decision
  if (d === null) return null
  if (d.decision === 'act') return d.stopRound
  return v.rounds.length > 0 && v.rounds.some((r) => r.bound !== null) ? v.rounds.length - 1 : null
}

/**
 * What the engine acted on (or would act on, deferred) and the posterior at that round, beside
 * which the final posterior is drawn: an acted answer read at an early round may differ from the
 * full trace's top candidate, and the decision is the acted one.
 */
export function DecisionAnswer({ verdict, candidates }: { verdict: Verdict; candidates: readonly string[] }) {
  const d = verdict.decision
  if (d === null || d.answer === null) return null
  const round = decisionRound(verdict)
  const at = round === null ? null : (verdict.rounds[round] ?? null)
  const acted = d.decision === 'act'
  const differs = d.answer !== verdict.answer
  return (
    <section className="panel decision-panel" aria-labelledby="decision-heading">
      <h2 id="decision-heading">{acted ? 'Acted on' : 'Deferred — draft answer'}</h2>
      <p
        className="decision-answer"
        data-testid="decision-answer"
        data-answer={d.answer}
        data-round={round === null ? '' : String(round)}
        data-decision={d.decision}
      >
        <strong className="decision-answer-value">{d.answer}</strong>{' '}
        <span className="muted">
          {round === null ? '(on the full trace: no certificate)' : acted ? `at round ${round}` : `at the last round (round ${round})`}
          {at !== null && ` · ${pct(at.posterior[d.answer] ?? 0)} at that round`}
        </span>
      </p>
      {differs && (
        <p className="small notice" data-testid="decision-differs">
          The final posterior’s top is {verdict.answer}; the decision stands on {d.answer}, read at round {round ?? '—'}.
        </p>
      )}
      {at !== null && (
        <>
          <h3 className="small muted">Posterior at round {round} ({verdict.method})</h3>
          <PosteriorChart candidates={candidates} posterior={at.posterior} answer={d.answer} testId="decision-posterior-bar" />
        </>
      )}
    </section>
  )
}
