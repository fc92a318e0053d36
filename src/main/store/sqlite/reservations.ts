/**
 * Reservations: a reviewer (one window = one session) who opens a task holds it for a while, so a
 * second window sees "reserved by …" instead of silently duplicating the work. A reservation is
 * advisory — the task version is what refuses a stale resolve — and it ends with the resolve,
 * a release, or its expiry. Only acquiring one is audited; refreshing one's own is not a new act.
 */
import { type Actor, type RecentLabel, type Reservation, type ReserveResult } from '../types'
import { checkId, checkInt } from '../validate'
import { appendAudit } from './audit'
import type { Sql } from './connection'
import { requireTask } from './labels'
import { LABEL_COLUMNS, toLabel, type LabelRow } from '../rows'

type ResRow = { reviewer: string; session_id: string; expires_at: string }

const toRes = (taskId: string, r: ResRow): Reservation => ({ taskId, reviewer: r.reviewer, sessionId: r.session_id, expiresAt: r.expires_at })

export function reserveTask(q: Sql, now: string, taskId: string, actor: Actor, ttlMs: number): ReserveResult {
  requireTask(q, taskId)
  checkInt(ttlMs, 'ttlMs', 1)
  const held = q.get<ResRow>('SELECT reviewer, session_id, expires_at FROM reservations WHERE task_id = ?', taskId)
  if (held !== undefined && held.expires_at > now && held.session_id !== actor.sessionId) {
    return { mine: null, heldBy: toRes(taskId, held) }
  }
  const expiresAt = new Date(Date.parse(now) + Math.min(ttlMs, 24 * 3600_000)).toISOString()
  q.run(
    `INSERT INTO reservations (task_id, reviewer, session_id, expires_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (task_id) DO UPDATE SET reviewer = excluded.reviewer, session_id = excluded.session_id, expires_at = excluded.expires_at`,
    taskId, actor.reviewer, actor.sessionId, expiresAt
  )
  const renewed = held !== undefined && held.expires_at > now && held.session_id === actor.sessionId
  if (!renewed) appendAudit(q, now, actor, 'task.reserve', taskId, { expiresAt })
  return { mine: { taskId, reviewer: actor.reviewer, sessionId: actor.sessionId, expiresAt }, heldBy: null }
}

/** Ends the caller's own reservation; true when there was one. */
export function releaseTask(q: Sql, now: string, taskId: string, actor: Actor): boolean {
  checkId(taskId, 'taskId')
  const changed = q.run('DELETE FROM reservations WHERE task_id = ? AND session_id = ?', taskId, actor.sessionId)
  if (changed > 0) appendAudit(q, now, actor, 'task.release', taskId, {})
  return changed > 0
}

/** Called inside a label write: the task is done, whoever held it. */
export function clearReservation(q: Sql, taskId: string): void {
  q.run('DELETE FROM reservations WHERE task_id = ?', taskId)
}

export function recentLabels(q: Sql, limit: number): RecentLabel[] {
  checkInt(limit, 'limit', 1)
  const rows = q.all<LabelRow & { question: string | null; superseded: number }>(
    `SELECT ${LABEL_COLUMNS.split(', ').map((c) => `l.${c}`).join(', ')}, t.question,
       EXISTS (SELECT 1 FROM labels s WHERE s.supersedes = l.id) AS superseded
     FROM labels l JOIN tasks t ON t.id = l.task_id ORDER BY l.rowid DESC LIMIT ?`,
    Math.min(limit, 1000)
  )
  return rows.map((r) => ({ ...toLabel(r), question: r.question, live: r.label !== null && r.superseded === 0 }))
}
