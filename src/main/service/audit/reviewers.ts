import type { ReviewerRow } from '../../../shared/api'
import type { DrawCount, ReviewerLabelCount } from '../../store'

/**
 * Labels by reviewer (Audit): live labels per source, and the reviewer's labels that
 * were later undone or replaced. Most labels first, then by name. Their agreement: agreement.ts.
 */
export function reviewerRows(counts: readonly ReviewerLabelCount[]): ReviewerRow[] {
  const by = new Map<string, ReviewerRow>()
  for (const c of counts) {
    let row = by.get(c.reviewer)
    if (row === undefined) by.set(c.reviewer, (row = { reviewer: c.reviewer, random: 0, escalation: 0, undone: 0, draws: 0, skips: 0 }))
    row[c.source] += c.live
    row.undone += c.superseded
  }
  const total = (r: ReviewerRow) => r.random + r.escalation
  return [...by.values()].sort((a, b) => total(b) - total(a) || (a.reviewer < b.reviewer ? -1 : a.reviewer > b.reviewer ? 1 : 0))
}

/**
 * The rows with each login's Calibrate draws and skips, read fresh on every open: a skip changes no
 * label, so the cached summary does not see it. A login that only drew and skipped gets a row too —
 * a reviewer skipping most draws steers the calibration set toward easy tasks, and Audit shows it.
 */
export function withDrawCounts(rows: readonly ReviewerRow[], draws: readonly DrawCount[]): ReviewerRow[] {
  const by = new Map(draws.map((d) => [d.reviewer, d]))
  const out = rows.map((r) => ({ ...r, draws: by.get(r.reviewer)?.draws ?? 0, skips: by.get(r.reviewer)?.skips ?? 0 }))
  for (const d of draws) {
    if (!rows.some((r) => r.reviewer === d.reviewer)) out.push({ reviewer: d.reviewer, random: 0, escalation: 0, undone: 0, draws: d.draws, skips: d.skips })
  }
  return out
}
