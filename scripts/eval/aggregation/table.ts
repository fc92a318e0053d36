import type { Hyper, HyperName } from '../../../src/main/engine'
import { formatReferences, type Reference } from './published'
import type { CellResult } from './splits'

/** Mean and sample standard deviation (n − 1; 0 for a single value). */
export function meanSd(xs: readonly number[]): { mean: number; sd: number } {
  const n = xs.length
  const mean = xs.reduce((a, b) => a + b, 0) / n
  const ss = xs.reduce((a, x) => a + (x - mean) * (x - mean), 0)
  return { mean, sd: n > 1 ? Math.sqrt(ss / (n - 1)) : 0 }
}

const pm = (xs: readonly number[]): string => {
  const { mean, sd } = meanSd(xs)
  return `${mean.toFixed(4)} ± ${sd.toFixed(4)}`
}

const SHORT: Record<HyperName, string> = { b: 'b', kappa: 'κ', s: 's', tau: 'τ', lambda: 'λ' }

function hyperKey(h: Hyper): string {
  return (Object.keys(h) as HyperName[]).map((k) => `${SHORT[k]}=${h[k]}`).join(' ')
}

/** The most frequent CV choice over the splits and how often it was made, e.g. "b=0.7 κ=1 s=32 (6/10)". */
export function modalChoice(hypers: readonly Hyper[]): string {
  if (hypers.length === 0 || Object.keys(hypers[0]).length === 0) return '—'
  const counts = new Map<string, number>()
  for (const h of hypers) counts.set(hyperKey(h), (counts.get(hyperKey(h)) ?? 0) + 1)
  let best = ''
  let n = 0
  for (const [k, c] of counts) if (c > n) [best, n] = [k, c]
  return `${best} (${n}/${hypers.length})`
}

/** A markdown table with padded columns. */
export function markdown(head: readonly string[], rows: readonly string[][]): string[] {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)))
  const line = (cells: readonly string[]): string => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`
  return [line(head), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)]
}

/** One dataset's block: a row per method with its scores, CV choice and the reference numbers. */
export function datasetRows(cells: readonly CellResult[], refs: Partial<Record<string, Reference[]>>): string[][] {
  return cells.map((c) => {
    const ref = formatReferences(refs[c.method])
    if (c.refused !== undefined) return [c.method, '—', 'refused', '—', '—', '—', '—', ref]
    const ms = meanSd(c.scores.map((s) => s.ms)).mean
    return [
      c.method,
      c.skipped > 0 ? `${c.scores.length} of ${c.scores.length + c.skipped}` : `${c.scores.length}`,
      pm(c.scores.map((s) => s.accuracy)),
      pm(c.scores.map((s) => s.brier)),
      pm(c.scores.map((s) => s.eceEw)),
      modalChoice(c.scores.map((s) => s.hyper)),
      ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${ms.toFixed(0)} ms`,
      ref
    ]
  })
}

export const DATASET_HEAD = ['method', 'splits', 'accuracy', 'Brier', 'ECE_ew', 'CV choice (mode)', 'time/split', 'reference accuracy']
