import type { Trace } from '@shared/trace'
import { runPosterior, TIE_EPS } from '../../../src/main/engine'

/**
 * Majority vote over every gold task with fractional tie credit (a tied task counts 1/|tied| if
 * the gold is among the tied) — the expectation of a random tie-break, and the rule the reference
 * numbers of PROVENANCE.md use. Computed from the engine's majority posterior, so it checks the
 * readers and the baseline against those numbers without the luck of one seeded tie-break.
 */
export function fractionalMajority(traces: readonly Trace[]): { accuracy: number; n: number; tied: number } {
  const gold = traces.filter((t) => t.gold != null)
  const out = runPosterior({ method: 'majority', traces: gold, calibration: [], hyper: null, seed: 0 })
  let credit = 0
  let tied = 0
  out.forEach((r, j) => {
    const ps = Object.values(r.posterior)
    const top = Math.max(...ps)
    const at = Object.keys(r.posterior).filter((c) => r.posterior[c] >= top - TIE_EPS)
    if (at.length > 1) tied++
    if (at.includes(gold[j].gold as string)) credit += 1 / at.length
  })
  return { accuracy: credit / gold.length, n: gold.length, tied }
}
