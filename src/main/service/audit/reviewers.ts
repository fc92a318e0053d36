import type { ReviewerRow } from '../../../shared/api'
import type { ReviewerLabelCount } from '../../store'

/**
 * Labels by reviewer (Audit): live labels per source, and the reviewer's labels that
 * were later undone or replaced. Most labels first, then by name. Their agreement: agreement.ts.
 */
export function reviewerRows(counts: readonly ReviewerLabelCount[]): ReviewerRow[] {
  const by = new Map<string, ReviewerRow>()
  for (const c of counts) {
    let row = by.get(c.reviewer)
    if (row === undefined) by.set(c.reviewer, (row = { reviewer: c.reviewer, random: 0, escalation: 0, undone: 0 }))
    row[c.source] += c.live
    row.undone += c.superseded
  }
  const total = (r: ReviewerRow) => r.random + r.escalation
  return [...by.values()].sort((a, b) => total(b) - total(a) || (a.reviewer < b.reviewer ? -1 : a.reviewer > b.reviewer ? 1 : 0))
}
