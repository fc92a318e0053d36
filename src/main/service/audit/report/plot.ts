/**
 * The report's drawing primitives: a plot frame with axes, lines with their points, and a legend
 * below the plot, each an SVG string. The line charts mirror the console's Audit charts (kind, axes
 * and legend names), so a figure reads the same in the file and on screen.
 */
import { esc } from './text'

export const f = (x: number): string => (Math.round(x * 10) / 10).toString()

export interface Tick {
  at: number
  text: string
}

export const numberTicks = (values: readonly number[]): Tick[] => values.map((v) => ({ at: v, text: String(v) }))

/** A plot area: maps [xMin, xMax] × [0, 1] onto `w` × `h` pixels at (x0, y0). */
export class Frame {
  constructor(readonly x0: number, readonly y0: number, readonly w: number, readonly h: number, readonly xMin = 0, readonly xMax = 1) {}
  x = (v: number): number => this.x0 + (this.xMax === this.xMin ? 0.5 : (v - this.xMin) / (this.xMax - this.xMin)) * this.w
  y = (v: number): number => this.y0 + (1 - v) * this.h
  get bottom(): number {
    return this.y0 + this.h
  }

  /** Frame, dashed grid at the ticks, tick texts and both axis titles (the y title rotated, left of the ticks). */
  axes(xTitle: string, yTitle: string, xTicks: readonly Tick[], yTicks: readonly number[]): string {
    const grid = yTicks.map((t) => `<line class="grid" x1="${f(this.x0)}" x2="${f(this.x0 + this.w)}" y1="${f(this.y(t))}" y2="${f(this.y(t))}"/>` +
      `<text class="tick" x="${f(this.x0 - 4)}" y="${f(this.y(t) + 3)}" text-anchor="end">${t}</text>`).join('')
    const xt = xTicks.map((t) => `<line class="grid" x1="${f(this.x(t.at))}" x2="${f(this.x(t.at))}" y1="${f(this.y0)}" y2="${f(this.bottom)}"/>` +
      `<text class="tick" x="${f(this.x(t.at))}" y="${f(this.bottom + 12)}" text-anchor="middle">${esc(t.text)}</text>`).join('')
    return `<rect class="frame" x="${this.x0}" y="${this.y0}" width="${this.w}" height="${this.h}"/>${grid}${xt}` +
      `<text class="axis" x="${f(this.x0 + this.w / 2)}" y="${f(this.bottom + 26)}" text-anchor="middle">${esc(xTitle)}</text>` +
      `<text class="axis" transform="translate(11 ${f(this.y0 + this.h / 2)}) rotate(-90)" text-anchor="middle">${esc(yTitle)}</text>`
  }
}

export const svg = (w: number, h: number, title: string, body: string, cls = ''): string =>
  `<svg xmlns="http://www.w3.org/2000/svg"${cls === '' ? '' : ` class="${cls}"`} viewBox="0 0 ${w} ${h}" width="${w}" height="${h}" role="img" aria-label="${title}"><title>${title}</title>${body}</svg>`

export const polyline = (cls: string, pts: readonly (readonly [number, number])[]): string =>
  pts.length === 0 ? '' : `<polyline class="${cls}" points="${pts.map(([x, y]) => `${f(x)},${f(y)}`).join(' ')}"/>`

/** A line through its points with a ring at each, like the console's recharts `<Line>`; each ring carries a tooltip. */
export function series(cls: string, pts: readonly { x: number; y: number; tip: string }[]): string {
  const dots = pts.map((p) => `<circle class="dot ${cls}" cx="${f(p.x)}" cy="${f(p.y)}" r="2.5"><title>${p.tip}</title></circle>`).join('')
  return `<g class="series ${cls}">${polyline(cls, pts.map((p) => [p.x, p.y]))}${dots}</g>`
}

const LEGEND_ROW = 13

/** Rows of legend items, each row at most `width` wide (an item alone may be wider). */
function legendRows(items: readonly (readonly [string, string])[], width: number): { cls: string; label: string; w: number }[][] {
  const rows: { cls: string; label: string; w: number }[][] = [[]]
  let used = 0
  for (const [cls, label] of items) {
    const w = 26 + label.length * 5.6
    if (used + w > width - 8 && rows[rows.length - 1].length > 0) {
      rows.push([])
      used = 0
    }
    rows[rows.length - 1].push({ cls, label, w })
    used += w
  }
  return rows
}

/** The legend's height when laid out `width` wide. */
export const legendHeight = (items: readonly (readonly [string, string])[], width: number): number => legendRows(items, width).length * LEGEND_ROW

/** The legend centred under the axis title from `y` down, outside the plot area (over the plot it hid points near 1). */
export function legend(items: readonly (readonly [cls: string, label: string])[], width: number, y: number): string {
  return `<g class="legend">${legendRows(items, width).map((row, r) => {
    let x = (width - row.reduce((a, b) => a + b.w, 0)) / 2
    const base = y + r * LEGEND_ROW
    return row.map(({ cls, label, w }) => {
      const at = x
      x += w
      return `<line class="${cls}" x1="${f(at)}" x2="${f(at + 16)}" y1="${f(base - 3)}" y2="${f(base - 3)}"/><text class="tick" x="${f(at + 20)}" y="${f(base)}">${esc(label)}</text>`
    }).join('')
  }).join('')}</g>`
}
