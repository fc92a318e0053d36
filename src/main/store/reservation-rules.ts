/**
 * What a reservation means, the same on both backends: opening a task holds it for one
 * reviewer's session until `expires_at`. A reservation counts only while `expires_at > now` — every
 * read compares, so an expired one needs no sweeper: it simply stops counting, and the task is back
 * in everyone's queue. While it counts, another session's queue leaves the task out, and another
 * session's label write on it is a `conflict` naming the holder (never a silent overwrite).
 * Only the SQL that both dialects share lives here; each backend runs it with its own driver.
 */
import { StoreError } from './contract'
import type { Reservation } from '../../shared/contract/task'

/** The longest hold a caller may ask for: a forgotten window must not keep a task for days. */
export const MAX_RESERVATION_MS = 24 * 3600_000

/**
 * Live holds one session may keep: the task the reviewer works on, plus the one "next"
 * claims before the screen moves. A reserve beyond it releases the session's least recently
 * reserved or renewed hold (earliest expiry) instead of refusing: the console's next-task flow
 * never fails on a hold its own page forgot to release, and one window cannot hoard the queue.
 */
export const MAX_HOLDS_PER_SESSION = 2

/**
 * Live holds one reviewer (one login) may keep across all its sessions: two windows, each with its
 * open task and "next"'s claim. Session ids are the client's to choose (one per tab), so a cap per
 * session alone lets one login hold the whole queue by inventing ids; beyond this one, a reserve
 * releases the reviewer's least recently reserved or renewed hold, whichever session took it.
 */
export const MAX_HOLDS_PER_REVIEWER = 4

export type ReservationRow = { reviewer: string; session_id: string; expires_at: string }

export const SELECT_RESERVATION = 'SELECT reviewer, session_id, expires_at FROM reservations WHERE task_id = ?'

export const toReservation = (taskId: string, r: ReservationRow): Reservation => ({
  taskId, reviewer: r.reviewer, sessionId: r.session_id, expiresAt: r.expires_at
})

/** ISO-8601 UTC strings of one format compare as text in the order of time. */
export const isLive = (r: ReservationRow | undefined, now: string): r is ReservationRow => r !== undefined && r.expires_at > now

/** A live reservation of a session other than `sessionId`. */
export const heldByOther = (r: ReservationRow | undefined, now: string, sessionId: string): r is ReservationRow =>
  isLive(r, now) && r.session_id !== sessionId

export function expiryOf(now: string, ttlMs: number): string {
  return new Date(Date.parse(now) + Math.min(ttlMs, MAX_RESERVATION_MS)).toISOString()
}

/** The refusal of a label write on a task another session holds; `details.heldBy` names the holder. */
export function reservedConflict(taskId: string, r: ReservationRow): StoreError {
  return new StoreError('conflict', `task ${taskId} is reserved by ${r.reviewer} until ${r.expires_at}; it was not changed`, {
    taskId,
    reason: 'reserved',
    heldBy: toReservation(taskId, r)
  })
}

/**
 * A WHERE clause: no live reservation of another session holds the task `idExpr`. Parameters, in
 * order: now, the viewer's session. A lookup by the reservations' primary key per row considered.
 */
export const NOT_HELD_BY_OTHERS = (idExpr: string): string =>
  `NOT EXISTS (SELECT 1 FROM reservations rx WHERE rx.task_id = ${idExpr} AND rx.expires_at > ? AND rx.session_id <> ?)`

/**
 * The tasks other sessions hold (one reservation per task; few, a cap per login), as rows `id`.
 * Parameters, in order: now, the viewer's session.
 */
export const HELD_BY_OTHERS = 'SELECT rx.task_id AS id FROM reservations rx WHERE rx.expires_at > ? AND rx.session_id <> ?'
