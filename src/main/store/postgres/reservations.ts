/**
 * Reservations, with SQLite's semantics (../reservation-rules.ts): a reviewer's session holds an
 * opened task for a while; other sessions' queues skip it and their label writes on it are refused,
 * naming the holder. Every reservation change and every label write locks the task's row first
 * (READ COMMITTED, connection.ts `task`): two sessions reserving one free task at once, or a
 * reserve racing a label write, take turns, and the second one's statements see the first one's
 * committed row (the second reserve finds the hold and is refused; a label write finds it and is
 * a conflict). The lock order is always task, then reservation, then the store's data version.
 */
import { type Actor, type RecentLabel, type ReserveResult } from '../contract'
import { expiryOf, heldByOther, isLive, SELECT_RESERVATION, toReservation, type ReservationRow } from '../reservation-rules'
import { checkId, checkInt } from '../validate'
import { appendAudit } from './audit'
import type { PgSql } from './connection'
import { requireTask } from './labels'
import { LABEL_COLUMNS, toLabel, type LabelRow } from '../rows'

export async function reserveTask(q: PgSql, now: string, taskId: string, actor: Actor, ttlMs: number): Promise<ReserveResult> {
  await requireTask(q, taskId, true)
  checkInt(ttlMs, 'ttlMs', 1)
  const held = await q.get<ReservationRow>(`${SELECT_RESERVATION} FOR UPDATE`, taskId)
  if (heldByOther(held, now, actor.sessionId)) return { mine: null, heldBy: toReservation(taskId, held), renewed: false }
  const expiresAt = expiryOf(now, ttlMs)
  await q.run(
    `INSERT INTO reservations (task_id, reviewer, session_id, expires_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (task_id) DO UPDATE SET reviewer = excluded.reviewer, session_id = excluded.session_id, expires_at = excluded.expires_at`,
    taskId, actor.reviewer, actor.sessionId, expiresAt
  )
  // Live and not another's: the caller's own, extended.
  const renewed = isLive(held, now)
  if (!renewed) await appendAudit(q, now, actor, 'task.reserve', taskId, { expiresAt })
  return { mine: { taskId, reviewer: actor.reviewer, sessionId: actor.sessionId, expiresAt }, heldBy: null, renewed }
}

/** Ends the caller's own reservation; true when there was one. */
export async function releaseTask(q: PgSql, now: string, taskId: string, actor: Actor): Promise<boolean> {
  checkId(taskId, 'taskId')
  // The task's row first, as every reservation change (see top); an unknown task has no hold to end.
  await q.get('SELECT 1 FROM tasks WHERE id = ? FOR UPDATE', taskId)
  const changed = await q.run('DELETE FROM reservations WHERE task_id = ? AND session_id = ?', taskId, actor.sessionId)
  if (changed > 0) await appendAudit(q, now, actor, 'task.release', taskId, {})
  return changed > 0
}

export async function recentLabels(q: PgSql, limit: number): Promise<RecentLabel[]> {
  checkInt(limit, 'limit', 1)
  const rows = await q.all<LabelRow & { question: string | null; superseded: boolean }>(
    `SELECT ${LABEL_COLUMNS.split(', ').map((c) => `l.${c}`).join(', ')}, t.question,
       EXISTS (SELECT 1 FROM labels s WHERE s.supersedes = l.id) AS superseded
     FROM labels l JOIN tasks t ON t.id = l.task_id ORDER BY l.seq DESC LIMIT ?`,
    Math.min(limit, 1000)
  )
  return rows.map((r) => ({ ...toLabel(r), question: r.question, live: r.label !== null && !r.superseded }))
}
