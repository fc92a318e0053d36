import type { Trace } from '@shared/trace'
import { consistent, endorsements } from './check-trace'

/** Empirical measurements the simulator's tests compare with its configuration. */

/** Per seat: share of its round-0 proposals that are the gold. */
export function round0Accuracy(traces: Iterable<Trace>): Map<string, number> {
  const hits = new Map<string, [number, number]>()
  for (const t of traces)
    for (const m of t.moves) {
      if (m.round !== 0 || m.force !== 'propose') continue
      const h = hits.get(m.seat) ?? [0, 0]
      h[0] += m.answer === t.gold ? 1 : 0
      h[1] += 1
      hits.set(m.seat, h)
    }
  return new Map([...hits].map(([s, [c, n]]) => [s, c / n]))
}

/** Per seat: share of all its endorsements (every round) consistent with the gold. */
export function endorsementAccuracy(traces: Iterable<Trace>): Map<string, number> {
  const hits = new Map<string, [number, number]>()
  for (const t of traces)
    for (const e of endorsements(t)) {
      if (!e) continue
      const h = hits.get(e.seat) ?? [0, 0]
      h[0] += consistent(e, t.gold as string) ? 1 : 0
      h[1] += 1
      hits.set(e.seat, h)
    }
  return new Map([...hits].map(([s, [c, n]]) => [s, c / n]))
}

/** True when the seat endorsed something in the trace and every endorsement contradicts the gold. */
export function alwaysAgainstGold(t: Trace, seat: string): boolean {
  const mine = endorsements(t).filter((e) => e?.seat === seat)
  return mine.length > 0 && mine.every((e) => e !== null && !consistent(e, t.gold as string))
}
