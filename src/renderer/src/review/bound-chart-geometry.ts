/**
 * Where the bound chart (BoundChart.tsx) draws what: pure arithmetic over the certificate's rounds,
 * in pixels of a chart `width` wide, so it is tested without a browser.
 */

/** The width drawn before the panel was first measured. */
export const DEFAULT_CHART_WIDTH = 320
export const CHART_HEIGHT = 170
/** Room for the y labels (left), the x labels (bottom) and the top label. */
const MARGIN = { top: 14, right: 16, bottom: 28, left: 40 }
/** Space between the plot's edges and its first and last round. */
const X_PADDING = 10

export interface BoundChartInput {
  /** L_t per round (null where it could not be computed). */
  bound: readonly (number | null)[]
  /** 1 − α, or null when no budget could be set. */
  threshold: number | null
  /** Rounds after the debate ended (their state repeats the last real round's), or null. */
  repeated: { first: number; last: number } | null
  bestRound: number | null
}

export interface Point {
  round: number
  x: number
  y: number
  bound: number
  /** A round after the debate ended (drawn muted). */
  repeated: boolean
}

export interface BoundChartGeometry {
  plot: { left: number; right: number; top: number; bottom: number }
  /** The y axis from `low` to 1: its ticks, evenly spaced, with their positions. */
  yTicks: { value: number; y: number }[]
  xTicks: { round: number; x: number }[]
  /** The solid line through the real rounds and the dashed one from the last real round on, as SVG paths ('' when empty). */
  realPath: string
  repeatedPath: string
  points: Point[]
  /** The 1 − α line's height, null without a threshold or when it lies off the axis. */
  thresholdY: number | null
  /** The shaded band over the repeated rounds (half a round before the first, to the last). */
  repeatedBand: { x: number; width: number } | null
  best: Point | null
}

/** From just below the lowest bound (on a 0.05 grid) to 1: rounds a few hundredths apart read apart; never below −1. */
export function axisLow(bound: readonly (number | null)[], threshold: number | null): number {
  const finite = bound.flatMap((b) => (b === null || !Number.isFinite(b) ? [] : [b]))
  const low = Math.floor(20 * (Math.min(...finite, threshold ?? 1) - 0.05)) / 20
  return Math.max(-1, low)
}

export function boundChartGeometry({ bound, threshold, repeated, bestRound }: BoundChartInput, width: number): BoundChartGeometry {
  const plot = { left: MARGIN.left, right: Math.max(MARGIN.left + 2 * X_PADDING + 1, width - MARGIN.right), top: MARGIN.top, bottom: CHART_HEIGHT - MARGIN.bottom }
  const lastRound = Math.max(1, bound.length - 1)
  const x = (round: number) => plot.left + X_PADDING + (round / lastRound) * (plot.right - plot.left - 2 * X_PADDING)
  const low = axisLow(bound, threshold)
  const y = (v: number) => plot.bottom - ((v - low) / (1 - low)) * (plot.bottom - plot.top)
  const yTicks = [0, 1, 2, 3].map((i) => {
    const value = low + (i * (1 - low)) / 3
    return { value, y: y(value) }
  })
  const xTicks = bound.map((_, round) => ({ round, x: x(round) }))
  const points: Point[] = []
  bound.forEach((b, round) => {
    if (b !== null && Number.isFinite(b)) points.push({ round, x: x(round), y: y(b), bound: b, repeated: repeated !== null && round >= repeated.first })
  })
  // The real rounds solid; the repeated ones dashed, joined at the last real round.
  const realPath = pathThrough(bound, (t) => repeated === null || t < repeated.first, x, y)
  const repeatedPath = repeated === null ? '' : pathThrough(bound, (t) => t >= repeated.first - 1, x, y)
  const thresholdY = threshold !== null && threshold >= low && threshold <= 1 ? y(threshold) : null
  const repeatedBand =
    repeated === null ? null : { x: Math.max(plot.left, x(repeated.first - 0.5)), width: Math.min(plot.right, x(repeated.last)) - Math.max(plot.left, x(repeated.first - 0.5)) }
  const best = bestRound === null ? null : (points.find((p) => p.round === bestRound) ?? null)
  return { plot, yTicks, xTicks, realPath, repeatedPath, points, thresholdY, repeatedBand, best }
}

/** An SVG path through the rounds `keep` admits; a round without a bound breaks the line (no joining across it). */
function pathThrough(bound: readonly (number | null)[], keep: (round: number) => boolean, x: (t: number) => number, y: (v: number) => number): string {
  let d = ''
  let drawing = false
  bound.forEach((b, t) => {
    if (!keep(t) || b === null || !Number.isFinite(b)) {
      drawing = false
      return
    }
    d += `${drawing ? 'L' : 'M'}${x(t).toFixed(2)},${y(b).toFixed(2)}`
    drawing = true
  })
  return d
}
