/**
 * Who may write what on the label log, the same on both backends: a label is undone
 * only by its own reviewer, an adjudicated ruling only by an adjudicator, and a console's `random`
 * label is taken only for a task Calibrate drew for that very session (`draws`), so a hand-picked
 * task cannot enter the calibration set the certificate assumes uniform (docs/engine.md §10).
 */
import { StoreError, type Actor, type LabelRecord } from '../contract'
import { rowOf, type Plan } from '../plan'

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

/** A `random` label needs a draw of the task for the actor's session. */
export function* requireDrawn(taskId: string, actor: Actor): Plan<void> {
  const drawn = yield* rowOf('SELECT 1 AS drawn FROM draws WHERE session_id = ? AND task_id = ?', actor.sessionId, taskId)
  if (drawn === undefined) {
    throw new StoreError('unauthorized', `task ${taskId} was not drawn by Calibrate for this session: a random label comes only from a blind draw (resolve it as escalation)`, {
      taskId,
      reason: 'not-drawn'
    })
  }
}
