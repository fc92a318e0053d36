import { probabilityPercent } from '@shared/refit-change'
import { shortLabel } from '../components/LongText'

export interface PosteriorChartProps {
  candidates: readonly string[]
  posterior: Readonly<Record<string, number>>
  /** The engine's answer, drawn emphasised. */
  answer: string | null
}

/**
 * The posterior over candidates as horizontal bars; each bar carries its candidate and p for tests.
 * Plain elements, not a chart library: the review screen draws this on every resolve → next, and a
 * charting library's mount and teardown were most of that frame's script.
 */
export function PosteriorChart({ candidates, posterior, answer }: PosteriorChartProps) {
  return (
    <figure className="chart hbars" aria-label="Posterior over candidates">
      {candidates.map((c) => {
        const p = posterior[c] ?? 0
        return (
          <div key={c} className="hbar-row">
            {/* Each label gets its start only (a candidate may be a megabyte). */}
            <span className="hbar-label" title={shortLabel(c, 200)}>
              {shortLabel(c, 24)}
            </span>
            <span className="hbar-track">
              <span
                data-testid="posterior-bar"
                data-candidate={c}
                data-p={String(p)}
                className={c === answer ? 'hbar hbar-answer' : 'hbar'}
                style={{ width: `${100 * Math.min(1, Math.max(0, p))}%` }}
              />
            </span>
            <span className="hbar-value">{pct(p)}</span>
          </div>
        )
      })}
    </figure>
  )
}

export const pct = probabilityPercent
