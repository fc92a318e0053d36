import { CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts'
import type { MethodRow } from '@shared/api'

/** Accuracy against confidence per bin; the diagonal is perfect calibration. */
export function ReliabilityDiagram({ row }: { row: MethodRow }) {
  const data = row.bins
    .filter((b) => b.count > 0 && b.confidence !== null && b.accuracy !== null)
    .map((b) => ({ confidence: b.confidence!, accuracy: b.accuracy!, ideal: b.confidence!, count: b.count }))
  return (
    <figure className="diagram">
      <figcaption>
        {row.method} <span className="muted">ECE {row.eceEw.toFixed(3)}</span>
      </figcaption>
      <ResponsiveContainer width="100%" height={170}>
        <LineChart data={data} margin={{ top: 6, right: 10, bottom: 0, left: -18 }}>
          <CartesianGrid stroke="var(--border)" strokeDasharray="3 3" />
          <XAxis type="number" dataKey="confidence" domain={[0, 1]} ticks={[0, 0.5, 1]} tick={{ fill: 'var(--muted)', fontSize: 10 }} />
          <YAxis type="number" domain={[0, 1]} ticks={[0, 0.5, 1]} tick={{ fill: 'var(--muted)', fontSize: 10 }} />
          <Tooltip formatter={(v) => (typeof v === 'number' ? v.toFixed(3) : String(v))} />
          <Line dataKey="ideal" stroke="var(--border-strong)" strokeDasharray="4 3" dot={false} isAnimationActive={false} />
          <Line dataKey="accuracy" stroke="var(--accent)" isAnimationActive={false} />
        </LineChart>
      </ResponsiveContainer>
    </figure>
  )
}
