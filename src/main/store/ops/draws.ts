/**
 * The server's record of Calibrate's draws: which task the blind draw gave which
 * session. A console's `random` label is taken only for such a task (label-ownership.ts).
 */
import type { Actor } from '../contract'
import { run, type Plan } from '../plan'
import type { Dialect } from './dialect'
import { requireTask } from './labels'

/** Records that Calibrate drew `taskId` for the actor's session; true when it had not before. */
export function* recordDraw(d: Dialect, now: string, taskId: string, actor: Actor): Plan<boolean> {
  yield* requireTask(d, taskId)
  const changed = yield* run(
    `INSERT INTO draws (session_id, task_id, reviewer, drawn_at) VALUES (?, ?, ?, ?) ON CONFLICT (session_id, task_id) DO NOTHING`,
    actor.sessionId, taskId, actor.reviewer, now
  )
  return changed > 0
}
