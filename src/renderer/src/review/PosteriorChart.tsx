import { probabilityPercent } from '@shared/refit-change'
import { shortLabel } from '../components/LongText'

export interface PosteriorChartProps {
  candidates: readonly string[]
  posterior: Readonly<Record<string, number>>
  /** The engine's answer, drawn emphasised (none when it ties with another candidate at the top). */
  answer: string | null
  /** The bars' testid (the final posterior's by default). */
  testId?: string
}

/** Two probabilities the engine's tie rule treats as equal (docs/engine.md §6: within 1e-12). */
const TIE = 1e-12

/** The answer to emphasise: none when another candidate ties with it (a uniform posterior has no favourite). */
export function emphasised(candidates: readonly string[], posterior: Readonly<Record<string, number>>, answer: string | null): string | null {
  if (answer === null) return null
  const top = posterior[answer] ?? 0
  return candidates.some((c) => c !== answer && Math.abs((posterior[c] ?? 0) - top) <= TIE) ? null : answer
}

/**
 * The posterior over candidates as horizontal bars; each bar carries its candidate and p for tests.
 * Plain elements, not a chart library: the review screen draws this on every resolve → next, and a
 * charting library's mount and teardown were most of that frame's script.
 */
export function PosteriorChart({ candidates, posterior, answer, testId = 'posterior-bar' }: PosteriorChartProps) {
  const shown = emphasised(candidates, posterior, answer)
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
                data-testid={testId}
                data-candidate={c}
                data-p={String(p)}
                className={c === shown ? 'hbar hbar-answer' : 'hbar'}
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
