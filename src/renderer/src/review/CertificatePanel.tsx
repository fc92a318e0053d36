import { BoundChart } from './BoundChart'
import { neighbourhood, whyDeferred, type CalibrationNeed, type GapWhy } from './why-deferred'

export interface CertificateView {
  decision: 'act' | 'defer'
  /** 1 − α: the line a round's bound must reach. Null when no budget could be set. */
  threshold: number | null
  /** L_t per round (null where it could not be computed). */
  bound: readonly (number | null)[]
  stopRound: number | null
  gap: number | null
  why: GapWhy | null
  /** The best round (argmax_t L_t, docs/engine.md §8.9): where the why's terms are taken. */
  bestRound: number | null
  /** The task's last round with a move; later rounds repeat its state (§8.1 pads shorter traces). */
  lastRealRound: number | null
  reason: string | null
  /** Set when the calibration set is too small for any certificate. */
  calibration: CalibrationNeed | null
}

/** The rounds the certificate padded with the last real state, or null when the trace ran every round. */
export function repeatedRounds(rounds: number, lastRealRound: number | null): { first: number; last: number } | null {
  if (lastRealRound === null || lastRealRound >= rounds - 1) return null
  return { first: lastRealRound + 1, last: rounds - 1 }
}

/**
 * The per-round bound against the 1 − α line (with its value), the best round marked, rounds after
 * the debate ended drawn as repeated state; then the gap and why the task waits for a human.
 */
export function CertificatePanel({ cert }: { cert: CertificateView }) {
  const repeated = repeatedRounds(cert.bound.length, cert.lastRealRound)
  const finite = cert.bound.flatMap((b) => (b === null ? [] : [b]))
  const best = cert.bestRound !== null ? (cert.bound[cert.bestRound] ?? null) : null
  return (
    <section className="panel cert" data-testid="cert-gap" data-gap={cert.gap === null ? '' : String(cert.gap)} data-decision={cert.decision} aria-labelledby="cert-heading">
      <h2 id="cert-heading">
        Certificate: {cert.decision === 'act' ? `acted at round ${cert.stopRound}` : cert.calibration !== null ? 'none yet (deferred)' : 'deferred'}
        {cert.gap !== null && <span className="muted"> · gap {cert.gap.toFixed(3)}</span>}
      </h2>
      {cert.decision === 'defer' && (
        <p
          className="why"
          data-testid="why-deferred"
          {...(cert.calibration === null ? {} : { 'data-calibration-size': String(cert.calibration.size), 'data-calibration-needed': String(cert.calibration.needed) })}
        >
          {whyDeferred({ threshold: cert.threshold ?? 1, why: cert.why, reason: cert.reason, calibration: cert.calibration })}
        </p>
      )}
      {/* No round with a bound (no certificate yet): no chart, rather than empty axes. */}
      {finite.length > 0 && (
        <figure className="chart" aria-label="Lower bound per round">
          <BoundChart input={{ bound: cert.bound, threshold: cert.threshold, repeated, bestRound: cert.bestRound }} decision={cert.decision} />
          <figcaption className="chart-caption small">
            {cert.threshold !== null && (
              <span data-testid="cert-threshold" data-threshold={String(cert.threshold)}>
                1 − α = {cert.threshold.toFixed(3)} (the line a round must reach)
              </span>
            )}
            {best !== null && cert.bestRound !== null && (
              <span data-testid="cert-best-round" data-round={String(cert.bestRound)}>
                best round {cert.bestRound}: L = {best.toFixed(3)}
              </span>
            )}
            {repeated !== null && (
              <span data-testid="cert-repeated" data-first-round={String(repeated.first)} data-last-round={String(repeated.last)}>
                {repeated.first === repeated.last ? `round ${repeated.first} repeats` : `rounds ${repeated.first}–${repeated.last} repeat`} round {repeated.first - 1}’s state (the
                debate had ended)
              </span>
            )}
          </figcaption>
        </figure>
      )}
      {cert.why && (
        <dl className="facts decomposition">
          {neighbourhood(cert.why) !== null && (
            <>
              <dt>neighbourhood</dt>
              <dd data-testid="why-neighbourhood">{neighbourhood(cert.why)}</dd>
            </>
          )}
          <dt>neighbours right (q̂)</dt>
          <dd>{cert.why.qhat.toFixed(3)}</dd>
          <dt>smoothness bias (b)</dt>
          <dd>{cert.why.bias.toFixed(3)}</dd>
          <dt>sample term (c_k)</dt>
          <dd>{cert.why.conc.toFixed(3)}</dd>
        </dl>
      )}
    </section>
  )
}
