import { CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts'
import type { FrontierPoint } from '@shared/api'

/** The risk–automation frontier: how much is acted on, and how often wrongly, as β grows. */
export function FrontierChart({ points }: { points: readonly FrontierPoint[] }) {
  return (
    <ResponsiveContainer width="100%" height={220}>
      <LineChart data={points.map((p) => ({ ...p }))} margin={{ top: 8, right: 20, bottom: 4, left: -10 }}>
        <CartesianGrid stroke="var(--border)" strokeDasharray="3 3" />
        <XAxis dataKey="beta" type="number" domain={[0, 'dataMax']} tick={{ fill: 'var(--muted)', fontSize: 11 }} label={{ value: 'budget β', position: 'insideBottomRight', offset: -2, fill: 'var(--muted)', fontSize: 11 }} />
        <YAxis domain={[0, 1]} tick={{ fill: 'var(--muted)', fontSize: 11 }} />
        <Tooltip formatter={(v) => (typeof v === 'number' ? v.toFixed(3) : String(v))} />
        <Line name="acted share" dataKey="act" stroke="var(--accent)" isAnimationActive={false} />
        <Line name="wrong actions (share of all)" dataKey="wa" stroke="var(--bad)" isAnimationActive={false} />
        <Line name="β" dataKey="beta" stroke="var(--border-strong)" strokeDasharray="4 3" dot={false} isAnimationActive={false} />
      </LineChart>
    </ResponsiveContainer>
  )
}
