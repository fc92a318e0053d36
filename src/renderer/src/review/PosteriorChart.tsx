import { Bar, BarChart, Cell, ResponsiveContainer, XAxis, YAxis, type BarShapeProps } from 'recharts'
import { shortLabel } from '../components/LongText'

export interface PosteriorChartProps {
  candidates: readonly string[]
  posterior: Readonly<Record<string, number>>
  /** The engine's answer, drawn emphasised. */
  answer: string | null
}

/** The posterior over candidates as horizontal bars; each bar carries its candidate and p for tests. */
export function PosteriorChart({ candidates, posterior, answer }: PosteriorChartProps) {
  // Axis labels are measured and laid out by the chart: each gets its start only (a candidate may be a megabyte).
  const data = candidates.map((c) => ({ candidate: c, label: shortLabel(c, 24), p: posterior[c] ?? 0 }))
  const height = 28 * data.length + 24
  return (
    <figure className="chart" aria-label="Posterior over candidates">
      <ResponsiveContainer width="100%" height={height}>
        <BarChart data={data} layout="vertical" margin={{ top: 4, right: 48, bottom: 4, left: 4 }}>
          <XAxis type="number" domain={[0, 1]} hide />
          <YAxis type="category" dataKey="label" width={110} tickLine={false} axisLine={false} tick={{ fill: 'var(--text)', fontSize: 12 }} />
          <Bar dataKey="p" isAnimationActive={false} shape={(props: BarShapeProps) => <PosteriorRect {...props} />} label={{ position: 'right', fill: 'var(--muted)', fontSize: 12, formatter: (v: unknown) => pct(Number(v)) }}>
            {data.map((d) => (
              <Cell key={d.candidate} fill={d.candidate === answer ? 'var(--accent)' : 'var(--bar-muted)'} />
            ))}
          </Bar>
        </BarChart>
      </ResponsiveContainer>
    </figure>
  )
}

function PosteriorRect(props: BarShapeProps) {
  const { x, y, width, height, fill, payload } = props
  const d = payload as { candidate: string; p: number }
  return <rect data-testid="posterior-bar" data-candidate={d.candidate} data-p={String(d.p)} x={x} y={y} width={Math.max(0, width)} height={height} fill={fill} rx={2} />
}

export function pct(p: number): string {
  return `${(100 * p).toFixed(p > 0.999 || p < 0.001 ? 1 : 0)}%`
}
