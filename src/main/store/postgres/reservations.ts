/**
 * Reservations: a reviewer (one window = one session) who opens a task holds it for a while, so a
 * second window sees "reserved by …" instead of silently duplicating the work. Advisory, as in
 * SQLite (the task version is what refuses a stale resolve). Two sessions reserving one free task
 * at once: the SERIALIZABLE write makes one of them re-run and find the other's reservation.
 */
import { type Actor, type RecentLabel, type Reservation, type ReserveResult } from '../types'
import { checkId, checkInt } from '../validate'
import { appendAudit } from './audit'
import type { PgSql } from './connection'
import { requireTask } from './labels'
import { LABEL_COLUMNS, toLabel, type LabelRow } from '../rows'

type ResRow = { reviewer: string; session_id: string; expires_at: string }

const toRes = (taskId: string, r: ResRow): Reservation => ({ taskId, reviewer: r.reviewer, sessionId: r.session_id, expiresAt: r.expires_at })

export async function reserveTask(q: PgSql, now: string, taskId: string, actor: Actor, ttlMs: number): Promise<ReserveResult> {
  await requireTask(q, taskId)
  checkInt(ttlMs, 'ttlMs', 1)
  const held = await q.get<ResRow>('SELECT reviewer, session_id, expires_at FROM reservations WHERE task_id = ? FOR UPDATE', taskId)
  if (held !== undefined && held.expires_at > now && held.session_id !== actor.sessionId) {
    return { mine: null, heldBy: toRes(taskId, held) }
  }
  const expiresAt = new Date(Date.parse(now) + Math.min(ttlMs, 24 * 3600_000)).toISOString()
  await q.run(
    `INSERT INTO reservations (task_id, reviewer, session_id, expires_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (task_id) DO UPDATE SET reviewer = excluded.reviewer, session_id = excluded.session_id, expires_at = excluded.expires_at`,
    taskId, actor.reviewer, actor.sessionId, expiresAt
  )
  const renewed = held !== undefined && held.expires_at > now && held.session_id === actor.sessionId
  if (!renewed) await appendAudit(q, now, actor, 'task.reserve', taskId, { expiresAt })
  return { mine: { taskId, reviewer: actor.reviewer, sessionId: actor.sessionId, expiresAt }, heldBy: null }
}

/** Ends the caller's own reservation; true when there was one. */
export async function releaseTask(q: PgSql, now: string, taskId: string, actor: Actor): Promise<boolean> {
  checkId(taskId, 'taskId')
  const changed = await q.run('DELETE FROM reservations WHERE task_id = ? AND session_id = ?', taskId, actor.sessionId)
  if (changed > 0) await appendAudit(q, now, actor, 'task.release', taskId, {})
  return changed > 0
}

/** Called inside a label write: the task is done, whoever held it. */
export async function clearReservation(q: PgSql, taskId: string): Promise<void> {
  await q.run('DELETE FROM reservations WHERE task_id = ?', taskId)
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
