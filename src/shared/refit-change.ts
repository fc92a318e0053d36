/**
 * When a refit is news: it moved the acted share by at least 5 points or the
 * queue by at least 5 %. Both figures are each fit's own, as it was decided (its stored counts),
 * so labels given between the fits do not read as a change of the engine.
 */
import type { FitShare, RefitChange } from './contract/fits'

export const NOTABLE_ACTED_POINTS = 5
export const NOTABLE_QUEUE_SHARE = 0.05

/** Acted tasks as a share of the tasks the fit decided (0 when it decided none). */
export function actedShare(f: FitShare): number {
  return f.decided === 0 ? 0 : f.acted / f.decided
}

export interface RefitMoves {
  /** After − before, in percentage points of the acted share; null without a fit before. */
  actedPoints: number | null
  /** (after − before) / before of the queue; null without a fit before; ±Infinity from an empty queue. */
  queueChange: number | null
  notable: boolean
}

export function refitMoves(change: RefitChange): RefitMoves {
  const { before, after } = change
  if (before === null) return { actedPoints: null, queueChange: null, notable: false }
  const actedPoints = 100 * (actedShare(after) - actedShare(before))
  const dq = after.deferred - before.deferred
  const queueChange = before.deferred === 0 ? (dq === 0 ? 0 : Math.sign(dq) * Infinity) : dq / before.deferred
  // A hair under the line for the floating-point noise of a share's difference (5.000000000001 points is 5).
  const notable = Math.abs(actedPoints) >= NOTABLE_ACTED_POINTS - 1e-9 || Math.abs(queueChange) >= NOTABLE_QUEUE_SHARE - 1e-12
  return { actedPoints, queueChange, notable }
}

/** "32.3 %": a share in percent with one decimal. */
export function percent(share: number): string {
  return `${(100 * share).toFixed(1)} %`
}

/**
 * A posterior probability, one format wherever it is shown (Review's chart, the queue's column):
 * whole percent, and "> 99 %" / "< 1 %" for what would round to a certainty it is not.
 */
export function probabilityPercent(p: number): string {
  if (p >= 1) return '100 %'
  if (p <= 0) return '0 %'
  if (p >= 0.995) return '> 99 %'
  if (p < 0.005) return '< 1 %'
  return `${Math.round(100 * p)} %`
}
