/**
 * The append-only audit log. `appendAudit` is called INSIDE the transaction of the write it
 * records, so the row and the change commit (or roll back) together.
 */
import type { JsonObject } from '../contract'
import type { Actor, AuditEntry } from '../contract'
import { checkInt } from '../validate'
import type { PgSql } from './connection'
import { toAuditEntry, type AuditRow } from '../audit-row'

export async function appendAudit(
  q: PgSql,
  at: string,
  actor: Actor,
  action: string,
  target: string | null,
  details: JsonObject
): Promise<void> {
  await q.run(
    `INSERT INTO audit_log (at, reviewer, session_id, shell, action, target, details)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
    at,
    actor.reviewer,
    actor.sessionId,
    actor.shell,
    action,
    target,
    JSON.stringify(details)
  )
}

export async function auditTail(q: PgSql, limit: number): Promise<AuditEntry[]> {
  checkInt(limit, 'limit', 1)
  const rows = await q.all<AuditRow>(
    `SELECT seq, at, reviewer, session_id, shell, action, target, details
     FROM audit_log ORDER BY seq DESC LIMIT ?`,
    Math.min(limit, 10_000)
  )
  return rows.reverse().map(toAuditEntry)
}
