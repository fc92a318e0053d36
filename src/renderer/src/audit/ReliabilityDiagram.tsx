import { CartesianGrid, LabelList, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts'
import type { MethodRow } from '@shared/api'

const AXIS = { fill: 'var(--muted)', fontSize: 10 }
/** Below the axis title, outside the plot: above it, the legend sat over the points (and counts) near accuracy 1. */
const LEGEND_BELOW = { fontSize: 10, bottom: 0 }

/** Accuracy against confidence per bin, each point labelled with its bin's task count; the diagonal is perfect calibration. */
export function ReliabilityDiagram({ row }: { row: MethodRow }) {
  const data = row.bins
    .filter((b) => b.count > 0 && b.confidence !== null && b.accuracy !== null)
    .map((b) => ({ confidence: b.confidence!, accuracy: b.accuracy!, ideal: b.confidence!, count: b.count }))
  return (
    <figure className="diagram" data-testid="reliability-diagram" data-method={row.method} data-bin-counts={data.map((d) => d.count).join(',')}>
      <figcaption>
        {row.method} <span className="muted">ECE {row.eceEw.toFixed(3)}</span>
      </figcaption>
      <ResponsiveContainer width="100%" height={240}>
        <LineChart data={data} margin={{ top: 26, right: 12, bottom: 16, left: 0 }}>
          <CartesianGrid stroke="var(--border)" strokeDasharray="3 3" />
          <XAxis
            type="number"
            dataKey="confidence"
            domain={[0, 1]}
            ticks={[0, 0.5, 1]}
            tick={AXIS}
            label={{ value: 'confidence', position: 'insideBottom', offset: -8, fill: 'var(--muted)', fontSize: 10 }}
          />
          <YAxis type="number" domain={[0, 1]} ticks={[0, 0.5, 1]} tick={AXIS} width={34} label={{ value: 'accuracy', angle: -90, position: 'insideLeft', offset: 10, dy: 24, fill: 'var(--muted)', fontSize: 10 }} />
          <Tooltip formatter={(v) => (typeof v === 'number' ? v.toFixed(3) : String(v))} />
          <Legend verticalAlign="bottom" height={20} iconSize={10} wrapperStyle={LEGEND_BELOW} />
          <Line name="perfect calibration" dataKey="ideal" stroke="var(--border-strong)" strokeDasharray="4 3" dot={false} isAnimationActive={false} />
          <Line name="accuracy (n = tasks in bin)" dataKey="accuracy" stroke="var(--accent)" isAnimationActive={false}>
            <LabelList dataKey="count" position="top" offset={6} fill="var(--muted)" fontSize={9} />
          </Line>
        </LineChart>
      </ResponsiveContainer>
    </figure>
  )
}
