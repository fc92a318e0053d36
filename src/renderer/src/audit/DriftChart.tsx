import { CartesianGrid, Legend, Line, LineChart, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts'
import type { SeatAuditRow } from '@shared/api'
import { clockTime, dayClock, dayText } from '../components/time-text'

const AXIS = { fill: 'var(--muted)', fontSize: 10 }
/** Below the axis title, outside the plot: a legend above the plot sat over the points near 1. */
const LEGEND_BELOW = { fontSize: 10, bottom: 0 }
const DAY_MS = 86_400_000
/** Ticks as dates when the labels span days, else as times of day (a morning's labels would all read "Dec 1"). */
const tickFormat = (spanMs: number) => (ms: number) => (spanMs >= 2 * DAY_MS ? dayText(ms) : clockTime(ms))
const when = dayClock

/** The axis title: with times of day on the ticks, the date(s) they fall on, so the axis is dated either way. */
export function timeAxisTitle(firstMs: number, lastMs: number): string {
  if (lastMs - firstMs >= 2 * DAY_MS) return 'label time (date)'
  const first = dayText(firstMs)
  const last = dayText(lastMs)
  return first === last ? `label time on ${first}` : `label time, ${first} – ${last}`
}

/**
 * One seat's reliability over label time (docs/engine.md §9): the recent window is marked where it
 * begins. When the label times give no order, the chart would invent one: it says so instead.
 */
export function DriftChart({ seat }: { seat: SeatAuditRow }) {
  const c = seat.driftChart
  const flagged = seat.drift?.flagged === true
  const data = c.points.map((p) => ({ t: Date.parse(p.at), reliability: p.reliability, tasks: p.tasks }))
  const recentFrom = c.recentFrom === null ? null : Date.parse(c.recentFrom)
  const span = data.length === 0 ? 0 : data[data.length - 1].t - data[0].t
  return (
    <figure className="drift-chart" data-testid="audit-drift-chart" data-seat={seat.seat} data-no-time-order={String(c.noTimeOrder)} data-points={c.points.length}>
      <figcaption>
        {seat.seat} {flagged && <span className="tag tag-bad">drifting</span>}
      </figcaption>
      {c.noTimeOrder ? (
        <p className="no-time-order" data-testid="drift-no-time-order">
          No time order: most labels share one time (imported at once), so drift cannot be judged.
        </p>
      ) : data.length === 0 ? (
        <p className="muted small">No labeled task this seat moved in.</p>
      ) : (
        <ResponsiveContainer width="100%" height={170}>
          <LineChart data={data} margin={{ top: 6, right: 12, bottom: 16, left: 0 }}>
            <CartesianGrid stroke="var(--border)" strokeDasharray="3 3" />
            <XAxis
              type="number"
              dataKey="t"
              domain={['dataMin', 'dataMax']}
              tickFormatter={tickFormat(span)}
              tick={AXIS}
              tickCount={4}
              label={{ value: timeAxisTitle(data[0].t, data[data.length - 1].t), position: 'insideBottom', offset: -8, fill: 'var(--muted)', fontSize: 10 }}
            />
            <YAxis type="number" domain={[0, 1]} ticks={[0, 0.5, 1]} tick={AXIS} width={34} label={{ value: 'reliability', angle: -90, position: 'insideLeft', offset: 10, dy: 28, fill: 'var(--muted)', fontSize: 10 }} />
            <Tooltip labelFormatter={(t) => `up to ${when(Number(t))}`} formatter={(v, name, item) => [`${Number(v).toFixed(3)} (${(item.payload as { tasks: number }).tasks} tasks)`, String(name)]} />
            <Legend verticalAlign="bottom" height={18} iconSize={10} wrapperStyle={LEGEND_BELOW} />
            {recentFrom !== null && (
              <ReferenceLine x={recentFrom} stroke="var(--border-strong)" strokeDasharray="4 3" label={{ value: 'recent 20 %', position: 'insideTopLeft', fill: 'var(--muted)', fontSize: 10 }} />
            )}
            <Line name="reliability per bin of labels" dataKey="reliability" stroke={flagged ? 'var(--bad)' : 'var(--accent)'} isAnimationActive={false} />
          </LineChart>
        </ResponsiveContainer>
      )}
    </figure>
  )
}
