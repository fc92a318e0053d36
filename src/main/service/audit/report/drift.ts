/**
 * A seat's reliability over label time (docs/engine.md §9) as the console's Audit screen draws it:
 * a line over bins of labels, the recent window marked where it begins, a dated time axis. The
 * file is read anywhere, so times are in UTC and the axis says so.
 */
import type { SeatAuditRow } from '../../../../shared/api'
import { Frame, f, legend, legendHeight, series, svg, type Tick } from './plot'
import { esc, num } from './text'

const DAY_MS = 86_400_000
const DAY = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' })
const CLOCK = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', timeZone: 'UTC' })
const DAY_CLOCK = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: 'UTC' })

/** The axis title: with times of day on the ticks, the date(s) they fall on, so the axis is dated either way. */
export function driftAxisTitle(firstMs: number, lastMs: number): string {
  if (lastMs - firstMs >= 2 * DAY_MS) return 'label time (date, UTC)'
  const first = DAY.format(firstMs)
  const last = DAY.format(lastMs)
  return first === last ? `label time on ${first} (UTC)` : `label time, ${first} – ${last} (UTC)`
}

/** Four ticks from the first label to the last: dates when the labels span days, else times of day. */
function timeTicks(firstMs: number, lastMs: number): Tick[] {
  const fmt = lastMs - firstMs >= 2 * DAY_MS ? DAY : CLOCK
  const n = lastMs === firstMs ? 1 : 4
  return Array.from({ length: n }, (_, i) => {
    const at = n === 1 ? firstMs : firstMs + ((lastMs - firstMs) * i) / (n - 1)
    return { at, text: fmt.format(at) }
  })
}

const WIDTH = 330

/** The seat's chart; when its labels give no time order, a sentence instead of an invented order. */
export function driftSvg(seat: SeatAuditRow): string {
  const c = seat.driftChart
  if (c.noTimeOrder) return '<p class="no-time-order">No time order: most labels share one time (imported at once), so drift cannot be judged.</p>'
  if (c.points.length === 0) return '<p class="muted">No labeled task this seat moved in.</p>'
  const flagged = seat.drift?.flagged === true
  // A time the date parser cannot place has no spot on a time axis (and would make the formatters throw).
  const points = c.points.map((p) => ({ ...p, ms: Date.parse(p.at) })).filter((p) => Number.isFinite(p.ms))
  if (points.length === 0) return '<p class="muted">No label time to draw.</p>'
  const times = points.map((p) => p.ms)
  const first = times[0]
  const last = times[times.length - 1]
  const fr = new Frame(40, 8, WIDTH - 56, 120, first, last)
  const cls = flagged ? 'reliability drifting' : 'reliability'
  const line = series(cls, points.map((p, i) => ({
    x: fr.x(times[i]), y: fr.y(p.reliability), tip: `up to ${DAY_CLOCK.format(times[i])} UTC: ${num(p.reliability)} (${p.tasks} tasks)`
  })))
  const recentMs = c.recentFrom === null ? NaN : Date.parse(c.recentFrom)
  const recent = !Number.isFinite(recentMs) ? '' : `<line class="recent" x1="${f(fr.x(recentMs))}" x2="${f(fr.x(recentMs))}" y1="${fr.y0}" y2="${f(fr.bottom)}"/>` +
    `<text class="tick" x="${f(fr.x(recentMs) + 3)}" y="${fr.y0 + 10}">recent 20 %</text>`
  const items = [[cls, 'reliability per bin of labels']] as const
  const keys = legend(items, WIDTH, fr.bottom + 42)
  const axes = fr.axes(driftAxisTitle(first, last), 'reliability', timeTicks(first, last), [0, 0.5, 1])
  return svg(WIDTH, fr.bottom + 34 + legendHeight(items, WIDTH), `${esc(seat.seat)}: reliability over label time`, axes + recent + line + keys, 'plot-drift')
}
