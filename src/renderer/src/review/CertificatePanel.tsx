import { CartesianGrid, Line, LineChart, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts'
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
  reason: string | null
}

/** The per-round bound against the 1 − α line, the gap, and why the task waits for a human. */
export function CertificatePanel({ cert }: { cert: CertificateView }) {
  const data = cert.bound.map((b, t) => ({ round: t, bound: b, k: cert.k[t] ?? null }))
  const finite = data.flatMap((d) => (d.bound === null ? [] : [d.bound]))
  const low = Math.min(0, ...finite, cert.threshold ?? 1) - 0.05
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
          <ResponsiveContainer width="100%" height={160}>
            <LineChart data={data} margin={{ top: 8, right: 44, bottom: 4, left: 0 }}>
              <CartesianGrid stroke="var(--border)" strokeDasharray="3 3" />
              <XAxis dataKey="round" tick={{ fill: 'var(--muted)', fontSize: 11 }} label={{ value: 'round', position: 'insideBottomRight', offset: -2, fill: 'var(--muted)', fontSize: 11 }} />
              <YAxis domain={[Math.max(-1, low), 1]} tick={{ fill: 'var(--muted)', fontSize: 11 }} width={40} />
              {cert.threshold !== null && <ReferenceLine y={cert.threshold} stroke="var(--accent)" strokeDasharray="4 2" label={{ value: '1 − α', fill: 'var(--accent)', fontSize: 11, position: 'right' }} />}
              <Tooltip formatter={(v) => (typeof v === 'number' ? v.toFixed(3) : String(v))} />
              <Line dataKey="bound" stroke="var(--text)" dot isAnimationActive={false} connectNulls={false} />
            </LineChart>
          </ResponsiveContainer>
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
