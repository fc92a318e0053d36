/** Pure helpers of the candidate keys: which digit picks which candidate shown, and what the filter shows. */

/** Keys 1–9 then 0 resolve the first ten candidates shown; more are reached with `/` or the arrows. */
export function keyForIndex(i: number): string | null {
  if (i < 9) return String(i + 1)
  if (i === 9) return '0'
  return null
}

export function indexForKey(key: string): number | null {
  if (key === '0') return 9
  return /^[1-9]$/.test(key) ? Number(key) - 1 : null
}

/** The candidates whose text contains `filter` (case-insensitive), in their order; all without one. */
export function matching(candidates: readonly string[], filter: string | null): number[] {
  const all = candidates.map((_, i) => i)
  const needle = filter?.trim().toLocaleLowerCase() ?? ''
  return needle === '' ? all : all.filter((i) => candidates[i].toLocaleLowerCase().includes(needle))
}
