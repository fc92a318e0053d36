/**
 * The report's plots as inline SVG strings: no script, no external resource, so the file opens
 * anywhere and stays readable in ten years. Plot titles and labels come from the database and are
 * escaped (text.ts). Colours come from CSS classes, so the dark theme restyles them.
 */
import type { FrontierPoint, MethodRow, SeatAuditRow } from '../../../../shared/api'
import { esc, num, short } from './text'

const f = (x: number): string => (Math.round(x * 10) / 10).toString()

/** A unit-square plot area: maps [0, xMax] × [0, 1] onto `w` × `h` pixels at (x0, y0). */
class Frame {
  constructor(readonly x0: number, readonly y0: number, readonly w: number, readonly h: number, readonly xMax = 1) {}
  x = (v: number): number => this.x0 + (v / this.xMax) * this.w
  y = (v: number): number => this.y0 + (1 - v) * this.h

  axes(xLabel: string, yLabel: string, xTicks: readonly number[]): string {
    const yTicks = [0, 0.5, 1]
    const grid = yTicks.map((t) => `<line class="grid" x1="${f(this.x0)}" x2="${f(this.x0 + this.w)}" y1="${f(this.y(t))}" y2="${f(this.y(t))}"/>` +
      `<text class="tick" x="${f(this.x0 - 4)}" y="${f(this.y(t) + 3)}" text-anchor="end">${t}</text>`).join('')
    const xt = xTicks.map((t) => `<text class="tick" x="${f(this.x(t))}" y="${f(this.y0 + this.h + 12)}" text-anchor="middle">${t}</text>`).join('')
    return `<rect class="frame" x="${this.x0}" y="${this.y0}" width="${this.w}" height="${this.h}"/>${grid}${xt}` +
      `<text class="axis" x="${f(this.x0 + this.w / 2)}" y="${f(this.y0 + this.h + 26)}" text-anchor="middle">${xLabel}</text>` +
      `<text class="axis" transform="translate(11 ${f(this.y0 + this.h / 2)}) rotate(-90)" text-anchor="middle">${yLabel}</text>`
  }
}

const svg = (w: number, h: number, title: string, body: string): string =>
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${w} ${h}" width="${w}" height="${h}" role="img" aria-label="${title}"><title>${title}</title>${body}</svg>`

/** Reliability diagram: accuracy per equal-width confidence bin, its gap to the bin's mean confidence, and the diagonal. */
export function reliabilitySvg(row: MethodRow): string {
  const fr = new Frame(40, 8, 200, 170)
  const bars = row.bins.filter((b) => b.count > 0 && b.accuracy !== null && b.confidence !== null).map((b) => {
    const x = fr.x(b.lo) + 1
    const w = fr.x(b.hi) - fr.x(b.lo) - 2
    const acc = b.accuracy as number
    const conf = b.confidence as number
    const tip = `<title>${num(b.lo, 1)}–${num(b.hi, 1)}: ${b.count} tasks, accuracy ${num(acc)}, mean confidence ${num(conf)}</title>`
    // Overconfidence (confidence above accuracy) is shaded above the bar; the tick marks the mean confidence either way.
    const over = conf > acc ? `<rect class="gap" x="${f(x)}" y="${f(fr.y(conf))}" width="${f(w)}" height="${f(fr.y(acc) - fr.y(conf))}"/>` : ''
    const tick = `<line class="conf" x1="${f(x)}" x2="${f(x + w)}" y1="${f(fr.y(conf))}" y2="${f(fr.y(conf))}"/>`
    return `<g><rect class="bar" x="${f(x)}" y="${f(fr.y(acc))}" width="${f(w)}" height="${f(fr.y(0) - fr.y(acc))}"/>${over}${tick}${tip}</g>`
  })
  const diag = `<line class="diag" x1="${fr.x(0)}" y1="${fr.y(0)}" x2="${fr.x(1)}" y2="${fr.y(1)}"/>`
  const title = `${esc(row.method)}: reliability (ECE_ew ${num(row.eceEw)}, n = ${row.n})`
  return svg(250, 215, title, fr.axes('confidence', 'accuracy', [0, 0.5, 1]) + bars.join('') + diag)
}

const polyline = (cls: string, pts: [number, number][]): string =>
  pts.length === 0 ? '' : `<polyline class="${cls}" points="${pts.map(([x, y]) => `${f(x)},${f(y)}`).join(' ')}"/>`

/** Risk–automation frontier: Act, Acc|Act and WA against β, with the line WA = β the budget bounds. */
export function frontierSvg(points: readonly FrontierPoint[], current: FrontierPoint | null): string {
  const xMax = Math.max(0.5, ...points.map((p) => p.beta))
  const fr = new Frame(40, 8, 300, 180, xMax)
  const act = polyline('act', points.map((p) => [fr.x(p.beta), fr.y(p.act)]))
  const accAct = polyline('accact', points.filter((p) => p.accAct !== null).map((p) => [fr.x(p.beta), fr.y(p.accAct as number)]))
  const wa = polyline('wa', points.map((p) => [fr.x(p.beta), fr.y(p.wa)]))
  const budget = `<line class="budget" x1="${fr.x(0)}" y1="${fr.y(0)}" x2="${f(fr.x(xMax))}" y2="${f(fr.y(Math.min(1, xMax)))}"/>`
  const dots = points.map((p) => `<circle class="act" cx="${f(fr.x(p.beta))}" cy="${f(fr.y(p.act))}" r="2.5"><title>β = ${num(p.beta, 2)}: Act ${num(p.act)}, WA ${num(p.wa)}</title></circle>`).join('')
  const now = current === null ? '' : `<circle class="current" cx="${f(fr.x(current.beta))}" cy="${f(fr.y(current.act))}" r="5"><title>current budget β = ${num(current.beta, 3)}: Act ${num(current.act)}</title></circle>`
  const legend = [['act', 'Act'], ['accact', 'Acc|Act'], ['wa', 'WA'], ['budget', 'WA = β']].map(([cls, label], i) =>
    `<line class="${cls}" x1="352" x2="372" y1="${20 + i * 16}" y2="${20 + i * 16}"/><text class="tick" x="376" y="${24 + i * 16}">${label}</text>`).join('')
  const ticks = [0, 0.1, 0.2, 0.3, 0.4, 0.5].filter((t) => t <= xMax)
  return svg(440, 225, 'risk–automation frontier (β sweep)', fr.axes('β (declared budget)', 'share of tasks', ticks) + budget + act + accAct + wa + dots + now + legend)
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

/** P(seat endorses column | truth row) as a heatmap; the cell's shade is the probability. */
export function confusionSvg(seat: string, candidates: readonly string[], m: readonly (readonly number[])[]): string {
  const K = candidates.length
  const cell = K <= 4 ? 40 : K <= 8 ? 28 : 18
  const left = 90
  const top = 66
  const cells = m.flatMap((row, r) => row.map((p, c) => {
    const x = left + c * cell
    const y = top + r * cell
    const text = K <= 8 ? `<text class="cell${p > 0.55 ? ' on' : ''}" x="${x + cell / 2}" y="${y + cell / 2 + 4}" text-anchor="middle">${num(p, 2)}</text>` : ''
    return `<g><rect class="heat" x="${x}" y="${y}" width="${cell - 1}" height="${cell - 1}" fill-opacity="${num(0.06 + 0.94 * p, 3)}"/>${text}` +
      `<title>truth ${esc(candidates[r])} → endorses ${esc(candidates[c])}: ${num(p)}</title></g>`
  }))
  const rows = candidates.map((c, r) => `<text class="tick" x="${left - 4}" y="${top + r * cell + cell / 2 + 4}" text-anchor="end">${short(c, 12)}</text>`)
  const cols = candidates.map((c, j) => `<text class="tick" transform="translate(${left + j * cell + cell / 2 + 3} ${top - 4}) rotate(-45)">${short(c, 10)}</text>`)
  const w = left + K * cell + 40
  const h = top + K * cell + 22
  const axes = `<text class="axis" x="4" y="${top - 6}">truth ↓</text><text class="axis" x="${left + (K * cell) / 2}" y="${h - 6}" text-anchor="middle">endorsed →</text>`
  return svg(w, h, `${esc(seat)}: P(endorses column | truth row)`, cells.join('') + rows.join('') + cols.join('') + axes)
}
