import { useEffect, useRef, useState } from 'react'
import { boundChartGeometry, CHART_HEIGHT, DEFAULT_CHART_WIDTH, type BoundChartInput } from './bound-chart-geometry'

/**
 * The panel's width as last measured: the next task's chart draws at once at the width the panel
 * had (it rarely changes between tasks); a resize observer corrects it when it does.
 */
let lastWidth = DEFAULT_CHART_WIDTH

function useWidth(): [React.RefObject<SVGSVGElement | null>, number] {
  const ref = useRef<SVGSVGElement>(null)
  const [width, setWidth] = useState(lastWidth)
  useEffect(() => {
    const el = ref.current
    if (el === null) return
    const observer = new ResizeObserver(([entry]) => {
      const w = Math.round(entry.contentRect.width)
      if (w > 0) setWidth((lastWidth = w))
    })
    observer.observe(el)
    return () => observer.disconnect()
  }, [])
  return [ref, width]
}

/**
 * The per-round lower bound against the 1 − α line, as one SVG drawn from bound-chart-geometry.ts.
 * Not a chart library: the review screen draws it on every resolve → next, and a library's mount
 * and teardown (its own store, its size observer) were most of that frame's script.
 * It spans its panel's width at a fixed height (text keeps its size); each point names its round and
 * bound on hover.
 */
export function BoundChart({ input, decision }: { input: BoundChartInput; decision: 'act' | 'defer' }) {
  const [ref, width] = useWidth()
  const g = boundChartGeometry(input, width)
  const { plot } = g
  return (
    <svg ref={ref} className="bound-chart" width="100%" height={CHART_HEIGHT} viewBox={`0 0 ${width} ${CHART_HEIGHT}`} role="img" aria-label={`L per round: ${g.points.map((p) => `${p.round}: ${p.bound.toFixed(3)}`).join(', ')}`}>
      {g.yTicks.map((t) => (
        <g key={`y${t.value}`}>
          <line className="grid" x1={plot.left} x2={plot.right} y1={t.y} y2={t.y} />
          <text className="tick" x={plot.left - 4} y={t.y} textAnchor="end" dominantBaseline="middle">
            {t.value.toFixed(2)}
          </text>
        </g>
      ))}
      {g.xTicks.map((t) => (
        <g key={`x${t.round}`}>
          <line className="grid" x1={t.x} x2={t.x} y1={plot.top} y2={plot.bottom} />
          <text className="tick" x={t.x} y={plot.bottom + 13} textAnchor="middle">
            {t.round}
          </text>
        </g>
      ))}
      <line className="axis" x1={plot.left} x2={plot.right} y1={plot.bottom} y2={plot.bottom} />
      <line className="axis" x1={plot.left} x2={plot.left} y1={plot.top} y2={plot.bottom} />
      <text className="tick" x={plot.right} y={CHART_HEIGHT - 2} textAnchor="end">
        round
      </text>
      {g.repeatedBand !== null && (
        <g>
          <rect className="repeated-band" x={g.repeatedBand.x} y={plot.top} width={Math.max(0, g.repeatedBand.width)} height={plot.bottom - plot.top} />
          <text className="tick" x={g.repeatedBand.x + g.repeatedBand.width / 2} y={plot.top + 11} textAnchor="middle">
            repeated state
          </text>
        </g>
      )}
      {g.thresholdY !== null && input.threshold !== null && (
        <g className="threshold">
          <line x1={plot.left} x2={plot.right} y1={g.thresholdY} y2={g.thresholdY} />
          {/* Above the line when deferred (every L_t is below it), below it when acted. */}
          <text x={plot.left + 4} y={decision === 'defer' ? g.thresholdY - 4 : g.thresholdY + 12}>
            1 − α = {input.threshold.toFixed(3)}
          </text>
        </g>
      )}
      {g.realPath !== '' && <path className="bound-line" d={g.realPath} />}
      {g.repeatedPath !== '' && <path className="bound-line repeated" d={g.repeatedPath} />}
      {g.points.map((p) => (
        <circle key={p.round} className={p.repeated ? 'bound-dot repeated' : 'bound-dot'} cx={p.x} cy={p.y} r={3}>
          <title>{`round ${p.round}: L = ${p.bound.toFixed(3)}`}</title>
        </circle>
      ))}
      {g.best !== null && (
        <g className="best">
          <circle cx={g.best.x} cy={g.best.y} r={6} />
          {/* On the side away from the 1 − α line. */}
          <text x={g.best.x} y={input.threshold !== null && g.best.bound < input.threshold ? g.best.y + 17 : g.best.y - 9} textAnchor="middle">
            best
          </text>
        </g>
      )}
    </svg>
  )
}
