/**
 * The append-only audit log. `appendAudit` is called INSIDE the transaction of the write it
 * records, so the row and the change commit (or roll back) together.
 */
import type { JsonObject } from '../json'
import type { Actor, AuditEntry, Shell } from '../types'
import { checkInt } from '../validate'
import type { PgSql } from './connection'
import { parseJsonObject } from './rows'

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

type AuditRow = {
  seq: number
  at: string
  reviewer: string
  session_id: string
  shell: Shell
  action: string
  target: string | null
  details: string
}

export async function auditTail(q: PgSql, limit: number): Promise<AuditEntry[]> {
  checkInt(limit, 'limit', 1)
  const rows = await q.all<AuditRow>(
    `SELECT seq, at, reviewer, session_id, shell, action, target, details
     FROM audit_log ORDER BY seq DESC LIMIT ?`,
    Math.min(limit, 10_000)
  )
  return rows.reverse().map((r) => ({
    seq: r.seq,
    at: r.at,
    reviewer: r.reviewer,
    sessionId: r.session_id,
    shell: r.shell,
    action: r.action,
    target: r.target,
    details: parseJsonObject(r.details)
  }))
}
