/**
 * The append-only audit log, and the audit's label counts. `appendAudit` runs INSIDE the plan of
 * the write it records, so the row and the change commit (or roll back) together.
 */
import type { Actor, AuditEntry, JsonObject, ReviewerLabelCount } from '../contract'
import { toAuditEntry, type AuditRow } from '../audit-row'
import { rowsOf, run, type Plan } from '../plan'
import { checkInt } from '../validate'

export function* appendAudit(at: string, actor: Actor, action: string, target: string | null, details: JsonObject): Plan<void> {
  yield* run(
    `INSERT INTO audit_log (at, reviewer, session_id, shell, action, target, details)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
    at, actor.reviewer, actor.sessionId, actor.shell, action, target, JSON.stringify(details)
  )
}

/** The last `limit` rows (at most 10,000), oldest first. */
export function* auditTail(limit: number): Plan<AuditEntry[]> {
  checkInt(limit, 'limit', 1)
  const rows = yield* rowsOf<AuditRow>(
    `SELECT seq, at, reviewer, session_id, shell, action, target, details
     FROM audit_log ORDER BY seq DESC LIMIT ?`,
    Math.min(limit, 10_000)
  )
  return rows.reverse().map(toAuditEntry)
}

/**
 * Labels per reviewer and source (the audit's "labels by reviewer"). An undo marker has no label
 * of its own, so it is not counted; the label it supersedes counts as superseded. One pass over
 * `labels`, the `labels_superseded_once` index answering each join.
 */
export function* labelCounts(): Plan<ReviewerLabelCount[]> {
  const rows = yield* rowsOf<ReviewerLabelCount>(
    `SELECT l.reviewer AS reviewer, l.source AS source,
       SUM(CASE WHEN s.id IS NULL THEN 1 ELSE 0 END) AS live,
       SUM(CASE WHEN s.id IS NULL THEN 0 ELSE 1 END) AS superseded
     FROM labels l LEFT JOIN labels s ON s.supersedes = l.id
     WHERE l.label IS NOT NULL
     GROUP BY l.reviewer, l.source ORDER BY l.reviewer, l.source`
  )
  return rows.map((r) => ({ reviewer: r.reviewer, source: r.source, live: r.live, superseded: r.superseded }))
}
