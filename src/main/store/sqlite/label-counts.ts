import type { ReviewerLabelCount } from '../contract'
import type { Sql } from './connection'

/**
 * Labels per reviewer and source (the audit's "labels by reviewer"). An undo marker has no label
 * of its own, so it is not counted; the label it supersedes counts as superseded. One pass over
 * `labels` with the `labels_superseded_once` index answering each EXISTS.
 */
export function labelCounts(q: Sql): ReviewerLabelCount[] {
  return q
    .all<{ reviewer: string; source: 'random' | 'escalation'; live: number; superseded: number }>(
      `SELECT l.reviewer AS reviewer, l.source AS source,
         SUM(CASE WHEN s.id IS NULL THEN 1 ELSE 0 END) AS live,
         SUM(CASE WHEN s.id IS NULL THEN 0 ELSE 1 END) AS superseded
       FROM labels l LEFT JOIN labels s ON s.supersedes = l.id
       WHERE l.label IS NOT NULL
       GROUP BY l.reviewer, l.source ORDER BY l.reviewer, l.source`
    )
    .map((r) => ({ reviewer: r.reviewer, source: r.source, live: r.live, superseded: r.superseded }))
}
