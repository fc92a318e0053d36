/**
 * The audit's drift chart per seat (docs/engine.md §9): the seat's Laplace
 * reliability over label time, in consecutive bins of equally many labels, with the start of the
 * recent window §9 compares against the rest ("where it began"). When the label times give no
 * order (§9: more than half share one time) there is no chart, only that fact.
 */
import type { DriftChart } from '../../../shared/api'
import { C_AT, finalRecord, hasTimeOrder, N_AT, type TaskTallies } from '../../engine'

/** Labels per bin at least this many (fewer labels: fewer bins), and at most this many bins. */
const MIN_PER_BIN = 20
const MAX_BINS = 12

export interface TimedTallies {
  tallies: TaskTallies
  /** Label time, epoch ms. */
  time: number
}

/** One chart per seat of `seats`, keyed by seat id. */
export function driftCharts(labeled: readonly TimedTallies[], seats: readonly string[]): Map<string, DriftChart> {
  const out = new Map<string, DriftChart>()
  const noTimeOrder = !hasTimeOrder(labeled.map((l) => l.time))
  if (labeled.length === 0 || noTimeOrder) {
    for (const seat of seats) out.set(seat, { noTimeOrder, points: [], recentFrom: null })
    return out
  }
  // §9's order: by label time, ties keeping input order.
  const order = labeled.map((_, i) => i).sort((a, b) => labeled[a].time - labeled[b].time || a - b)
  const n = order.length
  const nRecent = Math.floor(0.2 * n)
  const recentFrom = nRecent === 0 ? null : new Date(labeled[order[n - nRecent]].time).toISOString()
  const bins = Math.max(1, Math.min(MAX_BINS, Math.floor(n / MIN_PER_BIN)))
  for (const seat of seats) {
    const points: DriftChart['points'] = []
    for (let b = 0; b < bins; b++) {
      const from = Math.floor((b * n) / bins)
      const to = Math.floor(((b + 1) * n) / bins)
      let c = 0
      let N = 0
      let moved = 0
      for (let j = from; j < to; j++) {
        const t = labeled[order[j]].tallies
        const s = t.seatIds.indexOf(seat)
        if (s < 0 || t.gold < 0) continue
        const off = finalRecord(t, s)
        c += t.counts[off + C_AT + t.gold]
        N += t.counts[off + N_AT]
        moved++
      }
      if (moved === 0) continue
      points.push({ at: new Date(labeled[order[to - 1]].time).toISOString(), reliability: (c + 1) / (N + 2), tasks: moved })
    }
    out.set(seat, { noTimeOrder: false, points, recentFrom })
  }
  return out
}
