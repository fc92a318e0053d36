/**
 * Reservations (their rules: ../reservation-rules.ts): a reviewer (one window = one session) who
 * opens a task holds it for a while, so other sessions' queues skip it and their label writes on
 * it are refused, naming the holder. A hold ends with the holder's label, a release, or its
 * expiry. Only acquiring one is audited; extending one's own is not a new act.
 */
import { type Actor, type RecentLabel, type ReserveResult } from '../contract'
import { expiryOf, heldByOther, isLive, SELECT_RESERVATION, toReservation, type ReservationRow } from '../reservation-rules'
import { checkId, checkInt } from '../validate'
import { appendAudit } from './audit'
import type { Sql } from './connection'
import { requireTask } from './labels'
import { LABEL_COLUMNS, toLabel, type LabelRow } from '../rows'

export function reserveTask(q: Sql, now: string, taskId: string, actor: Actor, ttlMs: number): ReserveResult {
  requireTask(q, taskId)
  checkInt(ttlMs, 'ttlMs', 1)
  const held = q.get<ReservationRow>(SELECT_RESERVATION, taskId)
  if (heldByOther(held, now, actor.sessionId)) return { mine: null, heldBy: toReservation(taskId, held), renewed: false }
  const expiresAt = expiryOf(now, ttlMs)
  q.run(
    `INSERT INTO reservations (task_id, reviewer, session_id, expires_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (task_id) DO UPDATE SET reviewer = excluded.reviewer, session_id = excluded.session_id, expires_at = excluded.expires_at`,
    taskId, actor.reviewer, actor.sessionId, expiresAt
  )
  // Live and not another's: the caller's own, extended.
  const renewed = isLive(held, now)
  if (!renewed) appendAudit(q, now, actor, 'task.reserve', taskId, { expiresAt })
  return { mine: { taskId, reviewer: actor.reviewer, sessionId: actor.sessionId, expiresAt }, heldBy: null, renewed }
}

/** Ends the caller's own reservation; true when there was one. */
export function releaseTask(q: Sql, now: string, taskId: string, actor: Actor): boolean {
  checkId(taskId, 'taskId')
  const changed = q.run('DELETE FROM reservations WHERE task_id = ? AND session_id = ?', taskId, actor.sessionId)
  if (changed > 0) appendAudit(q, now, actor, 'task.release', taskId, {})
  return changed > 0
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
