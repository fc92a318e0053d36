/**
 * The report's plots as inline SVG strings: no script, no external resource, so the file opens
 * anywhere and stays readable in ten years. Plot titles and labels come from the database and are
 * escaped (text.ts). Colours come from CSS classes, so the dark theme restyles them. The reliability
 * diagram and the frontier are the console's line charts (src/renderer/src/audit/), drawn alike.
 */
import type { FrontierPoint, MethodRow, SeatAuditRow } from '../../../../shared/api'
import { f, Frame, legend, legendHeight, numberTicks, series, svg } from './plot'
import { esc, num, short } from './text'

const UNIT = [0, 0.5, 1]

/** Reliability diagram: accuracy against mean confidence per equal-width bin, each point labelled with its bin's task count; dashed, perfect calibration. */
export function reliabilitySvg(row: MethodRow): string {
  const fr = new Frame(40, 22, 200, 160)
  const pts = row.bins.filter((b) => b.count > 0 && b.accuracy !== null && b.confidence !== null).map((b) => ({
    x: fr.x(b.confidence as number), y: fr.y(b.accuracy as number), count: b.count,
    tip: `${num(b.lo, 1)}–${num(b.hi, 1)}: ${b.count} tasks, accuracy ${num(b.accuracy)}, mean confidence ${num(b.confidence)}`
  }))
  const diag = `<line class="diag" x1="${fr.x(0)}" y1="${fr.y(0)}" x2="${fr.x(1)}" y2="${fr.y(1)}"/>`
  const counts = pts.map((p) => `<text class="count" x="${f(p.x)}" y="${f(p.y - 6)}" text-anchor="middle">${p.count}</text>`).join('')
  const items = [['accuracy', 'accuracy (n = tasks in bin)'], ['diag', 'perfect calibration']] as const
  const keys = legend(items, 250, fr.bottom + 42)
  const title = `${esc(row.method)}: reliability (ECE_ew ${num(row.eceEw)}, n = ${row.n})`
  return svg(250, fr.bottom + 34 + legendHeight(items, 250), title, fr.axes('confidence', 'accuracy', numberTicks(UNIT), UNIT) + diag + series('accuracy', pts) + counts + keys, 'plot-reliability')
}

/** Ticks at a round step from 0 to at most `max`. */
const stepTicks = (max: number): number[] => {
  const step = max <= 0.3 ? 0.05 : max <= 0.6 ? 0.1 : 0.2
  return Array.from({ length: Math.floor(max / step + 1e-9) + 1 }, (_, i) => Math.round(i * step * 100) / 100)
}

/**
 * Risk–automation frontier, as the console draws it: the acted share and the wrong actions against β,
 * the line WA = β the budget bounds, and a vertical line at the current budget.
 */
export function frontierSvg(points: readonly FrontierPoint[], currentBeta: number | null): string {
  const xMax = Math.max(1e-9, ...points.map((p) => p.beta))
  const fr = new Frame(48, 18, 460, 200, 0, xMax)
  const at = (p: FrontierPoint, y: number, what: string) => ({ x: fr.x(p.beta), y: fr.y(y), tip: `β = ${num(p.beta, 3)}: ${what}` })
  const act = series('act', points.map((p) => at(p, p.act, `acted share ${num(p.act)}`)))
  const wa = series('wa', points.map((p) => at(p, p.wa, `wrong actions ${num(p.wa)}`)))
  const budget = `<polyline class="budget" points="${points.map((p) => `${f(fr.x(p.beta))},${f(fr.y(Math.min(1, p.beta)))}`).join(' ')}"/>`
  const now = currentBeta === null ? '' : `<line class="current" x1="${f(fr.x(currentBeta))}" x2="${f(fr.x(currentBeta))}" y1="${fr.y0}" y2="${f(fr.bottom)}"/>` +
    `<text class="current-label" x="${f(fr.x(currentBeta) + 4)}" y="${fr.y0 + 11}">current β = ${num(currentBeta, 2)}</text>`
  const items = [['act', 'acted share'], ['wa', 'wrong actions (share of all)'], ['budget', 'β (the budget line)']] as const
  const keys = legend(items, 530, fr.bottom + 44)
  const axes = fr.axes('wrong-action budget β', 'share of tasks', numberTicks(stepTicks(xMax)), [0, 0.25, 0.5, 0.75, 1])
  return svg(530, fr.bottom + 36 + legendHeight(items, 530), 'risk–automation frontier (β sweep)', axes + budget + act + wa + now + keys, 'plot-frontier')
}

/** Seat weights w_i as horizontal bars about zero; negative (counts against what it endorses) marked. Values sit in their own column so no bar covers a label. */
export function weightsSvg(seats: readonly SeatAuditRow[]): string {
  const rows = seats.filter((s) => s.weight !== null)
  const max = Math.max(1e-9, ...rows.map((s) => Math.abs(s.weight as number)))
  const rowH = 20
  const mid = 255
  const half = 135
  const bars = rows.map((s, i) => {
    const w = s.weight as number
    const y = 8 + i * rowH
    const len = (Math.abs(w) / max) * half
    const label = `<text class="tick" x="104" y="${y + 13}" text-anchor="end">${short(s.seat, 14)}</text>`
    const value = `<text class="tick" x="436" y="${y + 13}" text-anchor="end">${w < 0 ? '−' : ''}${num(Math.abs(w), 2)}</text>`
    const bar = `<rect class="${w < 0 ? 'neg' : 'pos'}" x="${f(w < 0 ? mid - len : mid)}" y="${y + 3}" width="${f(Math.max(len, 0.5))}" height="${rowH - 6}"/>`
    return `<g>${label}${bar}${value}<title>${esc(s.seat)}: weight ${num(w)}, reliability ${num(s.reliability)}</title></g>`
  })
  const h = 16 + rows.length * rowH
  return svg(440, h, 'seat weights', `<line class="axisline" x1="${mid}" x2="${mid}" y1="4" y2="${h - 4}"/>` + bars.join(''))
}

/** P(seat endorses column | truth row) as a heatmap, coloured as the console's: the diagonal (being right) green, the rest red; the shade is the probability. */
export function confusionSvg(seat: string, candidates: readonly string[], m: readonly (readonly number[])[]): string {
  const K = candidates.length
  const cell = K <= 4 ? 40 : K <= 8 ? 28 : 18
  const left = 90
  const top = 66
  const cells = m.flatMap((row, r) => row.map((p, c) => {
    const x = left + c * cell
    const y = top + r * cell
    const text = K <= 8 ? `<text class="cell${p > 0.55 ? ' on' : ''}" x="${x + cell / 2}" y="${y + cell / 2 + 4}" text-anchor="middle">${num(p, 2)}</text>` : ''
    return `<g><rect class="heat ${r === c ? 'right' : 'wrong'}" x="${x}" y="${y}" width="${cell - 1}" height="${cell - 1}" fill-opacity="${num(0.06 + 0.94 * p, 3)}"/>${text}` +
      `<title>truth ${esc(candidates[r])} → endorses ${esc(candidates[c])}: ${num(p)}</title></g>`
  }))
  const rows = candidates.map((c, r) => `<text class="tick" x="${left - 4}" y="${top + r * cell + cell / 2 + 4}" text-anchor="end">${short(c, 12)}</text>`)
  const cols = candidates.map((c, j) => `<text class="tick" transform="translate(${left + j * cell + cell / 2 + 3} ${top - 4}) rotate(-45)">${short(c, 10)}</text>`)
  const w = left + K * cell + 40
  const h = top + K * cell + 22
  const axes = `<text class="axis" x="4" y="${top - 6}">truth ↓</text><text class="axis" x="${left + (K * cell) / 2}" y="${h - 6}" text-anchor="middle">says →</text>`
  return svg(w, h, `${esc(seat)}: P(endorses column | truth row)`, cells.join('') + rows.join('') + cols.join('') + axes)
}
