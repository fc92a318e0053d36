/**
 * Who may write what on the label log, the same on both backends: a label is undone
 * only by its own reviewer, an adjudicated ruling only by an adjudicator, and a console's `random`
 * label is taken only on the open draw Calibrate made for that login and session (ops/draws.ts), so
 * a hand-picked task cannot enter the calibration set the certificate assumes uniform (docs/engine.md §10).
 */
import { StoreError, type Actor, type LabelRecord } from '../contract'
import { run, type Plan } from '../plan'
import type { Dialect } from './dialect'
import { countDraw, openDrawOf, type OpenDrawRow } from './draws'

/** The undo of `target` by `actor`; `mayUndoRulings`: the actor is an adjudicator. */
export function checkMayUndo(target: LabelRecord, actor: Actor, mayUndoRulings: boolean): void {
  if (target.adjudicated) {
    if (!mayUndoRulings) {
      throw new StoreError('unauthorized', `label ${target.id} is an adjudicated ruling: only an adjudicator may undo it`, { labelId: target.id, taskId: target.taskId })
    }
    return
  }
  if (target.reviewer !== actor.reviewer) {
    throw new StoreError('unauthorized', `label ${target.id} is ${target.reviewer}'s: only they may undo it`, { labelId: target.id, taskId: target.taskId })
  }
}

/**
 * A console's `random` label needs the actor's login's open draw of the task, handed to this very
 * session and not expired; once a label was given on it, only that label's replacement (the
 * labeler's change of mind on the same draw). Returns the draw, for `markDrawLabeled`.
 */
export function* requireDrawn(d: Dialect, now: string, taskId: string, actor: Actor, supersedes: string | null): Plan<OpenDrawRow> {
  const open = yield* openDrawOf(d, actor.reviewer, true)
  const refuse = (why: string, reason: string) =>
    new StoreError('unauthorized', `task ${taskId} ${why}: a random label comes only from a blind draw (resolve it as escalation)`, { taskId, reason })
  if (open === undefined || open.task_id !== taskId) throw refuse('is not your open Calibrate draw', 'not-drawn')
  if (open.session_id !== actor.sessionId) throw refuse('was drawn for another window of yours (the latest to ask holds the draw)', 'not-drawn')
  if (open.expires_at <= now) throw refuse('was drawn for you but the draw expired', 'draw-expired')
  if (open.label_id !== null && open.label_id !== supersedes) throw refuse('already has your label on this draw (a new one replaces it)', 'not-drawn')
  return open
}

/** The label `labelId` was given on the actor's open draw: the draw now names it; its first label is counted. */
export function* markDrawLabeled(draw: OpenDrawRow, labelId: string): Plan<void> {
  yield* run('UPDATE open_draws SET label_id = ? WHERE reviewer = ?', labelId, draw.reviewer)
  if (draw.label_id === null) yield* countDraw(draw.reviewer, 'labeled')
}
