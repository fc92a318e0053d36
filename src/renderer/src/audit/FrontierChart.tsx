import { CartesianGrid, Legend, Line, LineChart, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts'
import type { FrontierPoint } from '@shared/api'

const AXIS = { fill: 'var(--muted)', fontSize: 11 }

/**
 * The risk–automation frontier: how much is acted on, and how often wrongly, as β grows; the
 * current budget is marked, so the reviewer sees where the console stands on it.
 */
export function FrontierChart({ points, currentBeta }: { points: readonly FrontierPoint[]; currentBeta: number | null }) {
  return (
    <figure className="chart frontier" data-testid="frontier-chart">
      <ResponsiveContainer width="100%" height={290}>
        <LineChart data={points.map((p) => ({ ...p }))} margin={{ top: 18, right: 24, bottom: 22, left: 8 }}>
          <CartesianGrid stroke="var(--border)" strokeDasharray="3 3" />
          <XAxis
            dataKey="beta"
            type="number"
            domain={[0, 'dataMax']}
            tick={AXIS}
            label={{ value: 'wrong-action budget β', position: 'insideBottom', offset: -12, fill: 'var(--muted)', fontSize: 11 }}
          />
          <YAxis domain={[0, 1]} tick={AXIS} width={48} label={{ value: 'share of tasks', angle: -90, position: 'insideLeft', offset: 4, dy: 40, fill: 'var(--muted)', fontSize: 11 }} />
          <Tooltip formatter={(v) => (typeof v === 'number' ? v.toFixed(3) : String(v))} labelFormatter={(b) => `β = ${Number(b).toFixed(3)}`} />
          <Legend verticalAlign="bottom" height={24} wrapperStyle={{ fontSize: 12, bottom: 0 }} />
          {currentBeta !== null && (
            <ReferenceLine
              x={currentBeta}
              stroke="var(--text)"
              strokeWidth={1.5}
              label={{ value: `current β = ${currentBeta.toFixed(2)}`, position: 'insideTopLeft', fill: 'var(--text)', fontSize: 11 }}
            />
          )}
          <Line name="acted share" dataKey="act" stroke="var(--accent)" isAnimationActive={false} />
          <Line name="wrong actions (share of all)" dataKey="wa" stroke="var(--bad)" isAnimationActive={false} />
          <Line name="β (the budget line)" dataKey="beta" stroke="var(--border-strong)" strokeDasharray="4 3" dot={false} isAnimationActive={false} />
        </LineChart>
      </ResponsiveContainer>
      {currentBeta !== null && (
        <figcaption className="muted small" data-testid="frontier-current-beta" data-beta={String(currentBeta)}>
          The vertical line marks the current budget, β = {currentBeta.toFixed(3)}.
        </figcaption>
      )}
    </figure>
  )
}
