import { CartesianGrid, Line, LineChart, ReferenceArea, ReferenceDot, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts'
import { neighbourhood, whyDeferred, type GapWhy } from './why-deferred'

export interface CertificateView {
  decision: 'act' | 'defer'
  /** 1 − α: the line a round's bound must reach. Null when no budget could be set. */
  threshold: number | null
  /** L_t per round (null where it could not be computed). */
  bound: readonly (number | null)[]
  k: readonly (number | null)[]
  stopRound: number | null
  gap: number | null
  why: GapWhy | null
  /** The best round (argmax_t L_t, ENGINE.md §8.9): where the why's terms are taken. */
  bestRound: number | null
  /** The task's last round with a move; later rounds repeat its state (§8.1 pads shorter traces). */
  lastRealRound: number | null
  reason: string | null
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
  // Two series: the real rounds solid, the padded ones dashed (joined at the last real round).
  const data = cert.bound.map((b, t) => ({
    round: t,
    bound: repeated === null || t < repeated.first ? b : null,
    repeated: repeated !== null && t >= repeated.first - 1 ? b : null,
    k: cert.k[t] ?? null
  }))
  const finite = cert.bound.flatMap((b) => (b === null ? [] : [b]))
  // From just below the lowest bound (on a 0.05 grid) to 1: rounds a few hundredths apart read apart.
  const low = Math.floor(20 * (Math.min(...finite, cert.threshold ?? 1) - 0.05)) / 20
  const best = cert.bestRound !== null ? (cert.bound[cert.bestRound] ?? null) : null
  return (
    <section className="panel cert" data-testid="cert-gap" data-gap={cert.gap === null ? '' : String(cert.gap)} data-decision={cert.decision} aria-labelledby="cert-heading">
      <h2 id="cert-heading">
        Certificate: {cert.decision === 'act' ? `acted at round ${cert.stopRound}` : 'deferred'}
        {cert.gap !== null && <span className="muted"> · gap {cert.gap.toFixed(3)}</span>}
      </h2>
      {cert.decision === 'defer' && (
        <p className="why" data-testid="why-deferred">
          {whyDeferred({ threshold: cert.threshold ?? 1, why: cert.why, reason: cert.reason })}
        </p>
      )}
      {/* No round with a bound (no certificate yet): no chart, rather than empty axes. */}
      {finite.length > 0 && (
        <figure className="chart" aria-label="Lower bound per round">
          <ResponsiveContainer width="100%" height={170}>
            <LineChart data={data} margin={{ top: 14, right: 16, bottom: 4, left: 0 }}>
              <CartesianGrid stroke="var(--border)" strokeDasharray="3 3" />
              <XAxis
                dataKey="round"
                type="number"
                domain={[0, Math.max(1, data.length - 1)]}
                ticks={data.map((d) => d.round)}
                allowDecimals={false}
                padding={{ left: 10, right: 10 }}
                tick={{ fill: 'var(--muted)', fontSize: 11 }}
                label={{ value: 'round', position: 'insideBottomRight', offset: -2, fill: 'var(--muted)', fontSize: 11 }}
              />
              <YAxis domain={[Math.max(-1, low), 1]} tick={{ fill: 'var(--muted)', fontSize: 11 }} tickFormatter={(v: number) => v.toFixed(2)} width={40} />
              {repeated !== null && (
                <ReferenceArea
                  x1={repeated.first - 0.5}
                  x2={repeated.last}
                  ifOverflow="hidden"
                  fill="var(--muted)"
                  fillOpacity={0.12}
                  label={{ value: 'repeated state', position: 'insideTop', fill: 'var(--muted)', fontSize: 11 }}
                />
              )}
              {cert.threshold !== null && (
                <ReferenceLine
                  y={cert.threshold}
                  stroke="var(--accent)"
                  strokeDasharray="4 2"
                  // Above the line when deferred (every L_t is below it there; recharts' insideBottom of a line is above it).
                  label={{ value: `1 − α = ${cert.threshold.toFixed(3)}`, fill: 'var(--accent)', fontSize: 11, position: cert.decision === 'defer' ? 'insideBottomLeft' : 'insideTopLeft' }}
                />
              )}
              <Tooltip formatter={(v) => (typeof v === 'number' ? v.toFixed(3) : String(v))} labelFormatter={(r) => `round ${String(r)}`} />
              <Line name="L_t" dataKey="bound" stroke="var(--text)" dot isAnimationActive={false} connectNulls={false} />
              {repeated !== null && (
                <Line name="L_t (repeated state)" dataKey="repeated" stroke="var(--muted)" strokeDasharray="4 3" dot={{ fill: 'var(--panel)' }} isAnimationActive={false} connectNulls={false} />
              )}
              {best !== null && cert.bestRound !== null && (
                <ReferenceDot
                  x={cert.bestRound}
                  y={best}
                  r={6}
                  fill="none"
                  stroke="var(--accent)"
                  strokeWidth={2}
                  // On the side away from the 1 − α line.
                  label={{ value: 'best', position: cert.threshold !== null && best < cert.threshold ? 'bottom' : 'top', fill: 'var(--accent)', fontSize: 11 }}
                />
              )}
            </LineChart>
          </ResponsiveContainer>
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
