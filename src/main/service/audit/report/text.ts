/**
 * Text for the HTML report. Every string that comes from the database (seat ids, models,
 * candidates, reviewer names, refusal messages that quote task ids) is hostile text: it goes
 * through `esc` — in element content and in attribute values alike — and nowhere else.
 */
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

export function esc(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ENTITIES[c])
}

/** Shortens before escaping, so a cut never lands inside an entity. */
export function short(s: string, max: number): string {
  const chars = [...s]
  return esc(chars.length <= max ? s : `${chars.slice(0, max - 1).join('')}…`)
}

export function num(x: number | null | undefined, digits = 3): string {
  return x === null || x === undefined || !Number.isFinite(x) ? '—' : x.toFixed(digits)
}

export function pct(x: number | null | undefined, digits = 1): string {
  return x === null || x === undefined || !Number.isFinite(x) ? '—' : `${(100 * x).toFixed(digits)} %`
}

/** A table from already-escaped cells; `numeric` columns are right-aligned; `rowClass` (a class name per row, '' for none) marks rows. */
export function table(head: readonly string[], rows: readonly string[][], numeric: readonly boolean[] = [], rowClass: readonly string[] = []): string {
  const cls = (i: number) => (numeric[i] ? ' class="n"' : '')
  const th = head.map((h, i) => `<th${cls(i)}>${h}</th>`).join('')
  const tr = (j: number) => (rowClass[j] ? `<tr class="${rowClass[j]}">` : '<tr>')
  const body = rows.map((r, j) => `${tr(j)}${r.map((c, i) => `<td${cls(i)}>${c}</td>`).join('')}</tr>`).join('\n')
  return `<table><thead><tr>${th}</tr></thead><tbody>\n${body}\n</tbody></table>`
}
