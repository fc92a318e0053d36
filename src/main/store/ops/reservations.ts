/**
 * Reservations (their rules: ../reservation-rules.ts): a reviewer (one window = one session) who
 * opens a task holds it for a while, so other sessions' queues skip it and their label writes on
 * it are refused, naming the holder. A hold ends with the holder's label, a release, or its
 * expiry. Only acquiring one is audited; extending one's own is not a new act.
 *
 * In PostgreSQL every reservation change and every label write locks the task's row first
 * (READ COMMITTED, postgres/connection.ts `task`): two sessions reserving one free task at once, or a
 * reserve racing a label write, take turns, and the second one's statements see the first one's
 * committed row (the second reserve finds the hold and is refused; a label write finds it and is
 * a conflict). The lock order is always task, then reservation, then the store's data version.
 */
import type { JsonObject } from '../../../shared/json'
import type { PassedOver, Reservation } from '../../../shared/contract/task'
import { type Actor, type RecentLabelRecord, type ReserveOutcome } from '../contract'
import { expiryOf, heldByOther, isLive, MAX_HOLDS_PER_REVIEWER, MAX_HOLDS_PER_SESSION, SELECT_RESERVATION, toReservation, type ReservationRow } from '../reservation-rules'
import { checkId, checkInt } from '../validate'
import { appendAudit } from './audit'
import { rowOf, rowsOf, run, type Plan } from '../plan'
import { LABEL_COLUMNS, toLabel, type LabelRow } from '../rows'
import type { Dialect } from './dialect'
import { latestLive, requireTask } from './labels'

export function* reserveTask(d: Dialect, now: string, taskId: string, actor: Actor, ttlMs: number, seenVersion?: number): Plan<ReserveOutcome> {
  const task = yield* requireTask(d, taskId, true)
  checkInt(ttlMs, 'ttlMs', 1)
  const held = yield* rowOf<ReservationRow>(`${SELECT_RESERVATION}${d.forUpdate()}`, taskId)
  if (heldByOther(held, now, actor.sessionId)) return { mine: null, heldBy: toReservation(taskId, held), passedOver: null, renewed: false, released: [] }
  if (seenVersion !== undefined) {
    const passedOver = yield* passOver(d, task.id, task.version, seenVersion, actor)
    if (passedOver !== null) return { mine: null, heldBy: null, passedOver, renewed: false, released: [] }
  }
  const released = yield* makeRoomForHold(now, taskId, actor)
  const expiresAt = expiryOf(now, ttlMs)
  yield* run(
    `INSERT INTO reservations (task_id, reviewer, session_id, expires_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (task_id) DO UPDATE SET reviewer = excluded.reviewer, session_id = excluded.session_id, expires_at = excluded.expires_at`,
    taskId, actor.reviewer, actor.sessionId, expiresAt
  )
  // Live and not another's: the caller's own, extended.
  const renewed = isLive(held, now)
  if (!renewed) yield* appendAudit(now, actor, 'task.reserve', taskId, { expiresAt })
  return { mine: { taskId, reviewer: actor.reviewer, sessionId: actor.sessionId, expiresAt }, heldBy: null, passedOver: null, renewed, released }
}

/**
 * Whether "next" must not hand the task out (checked under the task's lock, so a label committed
 * a moment ago is seen): it changed since the caller's queue page was read, or the caller flagged it.
 */
function* passOver(d: Dialect, taskId: string, version: number, seenVersion: number, actor: Actor): Plan<PassedOver | null> {
  checkInt(seenVersion, 'seenVersion')
  if (version !== seenVersion) {
    const latest = yield* latestLive(d, taskId)
    return { reason: 'changed', labeledBy: latest?.reviewer ?? null }
  }
  const flagged = yield* rowOf('SELECT 1 AS flagged FROM flags WHERE task_id = ? AND reviewer = ? LIMIT 1', taskId, actor.reviewer)
  return flagged === undefined ? null : { reason: 'flagged-by-you' }
}

/**
 * Before the session takes or renews `taskId`: its other live holds beyond the session's cap, then
 * the reviewer's (every session of the login) beyond the reviewer's cap, least recently reserved or
 * renewed first (earliest expiry), end — each audited as a release for the cap.
 */
function* makeRoomForHold(now: string, taskId: string, actor: Actor): Plan<string[]> {
  const held = yield* rowsOf<{ task_id: string; session_id: string }>(
    'SELECT task_id, session_id FROM reservations WHERE reviewer = ? AND expires_at > ? AND task_id <> ? ORDER BY expires_at, task_id',
    actor.reviewer, now, taskId
  )
  const session = held.filter((r) => r.session_id === actor.sessionId)
  const overSession = new Set(session.slice(0, Math.max(0, session.length - (MAX_HOLDS_PER_SESSION - 1))))
  const kept = held.filter((r) => !overSession.has(r))
  const over = [...overSession, ...kept.slice(0, Math.max(0, kept.length - (MAX_HOLDS_PER_REVIEWER - 1)))]
  for (const r of over) {
    yield* run('DELETE FROM reservations WHERE task_id = ? AND session_id = ?', r.task_id, r.session_id)
    const details: JsonObject = { reason: 'hold-cap', for: taskId }
    if (r.session_id !== actor.sessionId) details.sessionId = r.session_id
    yield* appendAudit(now, actor, 'task.release', r.task_id, details)
  }
  return over.map((r) => r.task_id)
}

/** Ends the caller's own reservation; true when there was one. */
export function* releaseTask(d: Dialect, now: string, taskId: string, actor: Actor): Plan<boolean> {
  checkId(taskId, 'taskId')
  // The task's row first, as every reservation change (see top); an unknown task has no hold to end.
  if (d.forUpdate() !== '') yield* rowOf(`SELECT 1 FROM tasks WHERE id = ?${d.forUpdate()}`, taskId)
  const changed = yield* run('DELETE FROM reservations WHERE task_id = ? AND session_id = ?', taskId, actor.sessionId)
  if (changed > 0) yield* appendAudit(now, actor, 'task.release', taskId, {})
  return changed > 0
}

/** Ends whoever's live hold on the task (QueueStore.releaseHold; the service says who may). */
export function* releaseHold(d: Dialect, now: string, taskId: string, actor: Actor): Plan<Reservation | null> {
  yield* requireTask(d, taskId, true)
  const held = yield* rowOf<ReservationRow>(`${SELECT_RESERVATION}${d.forUpdate()}`, taskId)
  if (!isLive(held, now)) return null
  yield* run('DELETE FROM reservations WHERE task_id = ?', taskId)
  const ended = toReservation(taskId, held)
  yield* appendAudit(now, actor, 'task.release', taskId, { heldBy: ended.reviewer, sessionId: ended.sessionId, expiresAt: ended.expiresAt })
  return ended
}

export function* recentLabels(d: Dialect, limit: number): Plan<RecentLabelRecord[]> {
  checkInt(limit, 'limit', 1)
  const rows = yield* rowsOf<LabelRow & { question: string | null; superseded: number | boolean }>(
    `SELECT ${LABEL_COLUMNS.split(', ').map((c) => `l.${c}`).join(', ')}, t.question,
       EXISTS (SELECT 1 FROM labels s WHERE s.supersedes = l.id) AS superseded
     FROM labels l JOIN tasks t ON t.id = l.task_id ORDER BY l.${d.seq} DESC LIMIT ?`,
    Math.min(limit, 1000)
  )
  return rows.map((r) => ({ ...toLabel(r), question: r.question, live: r.label !== null && !r.superseded }))
}
