/**
 * What keeps the calibration set C (the tasks with a live blind label, docs/engine.md §10) the
 * server's uniform draw, against any login's console calls: a task leaves C only through its
 * labeler's replacement on the same draw, or an adjudication. So, for a console's write:
 * - a blind label is not undone (an undo would take its task out of C, chosen after seeing the
 *   verdict): its labeler replaces it on the same draw instead;
 * - the labeler's own blind label is replaced only by a blind label on its open draw;
 * - another reviewer's label does not go on a task holding a blind label that is not theirs, unless
 *   it is itself a blind label on that reviewer's draw (several reviewers per task): an agreeing
 *   escalation label would become the effective one and a disagreeing one would leave the task
 *   awaiting an adjudication — either takes the task out of C. A flag asks an adjudicator instead.
 * Trusted writers (the CLI, an adjudicator's ruling) do not pass through here.
 */
import { StoreError, type LabelRecord, type LabelSource } from '../contract'
import { LIVE_LABEL } from '../label-rules'
import { rowOf, type Plan } from '../plan'

const isBlind = (l: Pick<LabelRecord, 'source' | 'adjudicated'>): boolean => l.source === 'random' && !l.adjudicated

/** A console's undo of `target`. */
export function checkBlindUndo(target: LabelRecord): void {
  if (!isBlind(target)) return
  throw new StoreError(
    'conflict',
    `label ${target.id} is a blind label of the calibration set: it is not undone but replaced — label task ${target.taskId} again on its Calibrate draw, or ask an adjudicator`,
    { labelId: target.id, taskId: target.taskId, reason: 'blind-label' }
  )
}

/**
 * A console's new label by `reviewer` on `taskId`, replacing `replaced` (their own live label, or
 * null); `onDraw`: it is a blind label on the reviewer's open draw (requireDrawn passed).
 */
export function* checkKeepsCalibrationSet(taskId: string, reviewer: string, source: LabelSource, replaced: LabelRecord | null, onDraw: boolean): Plan<void> {
  if (replaced !== null && isBlind(replaced) && !onDraw) {
    throw new StoreError(
      'conflict',
      `your label on task ${taskId} is a blind label of the calibration set: change it in Calibrate on the same draw, or ask an adjudicator`,
      { taskId, labelId: replaced.id, reason: 'blind-label' }
    )
  }
  if (source === 'random' && onDraw) return
  const other = yield* rowOf<{ reviewer: string }>(
    `SELECT l.reviewer FROM labels l WHERE l.task_id = ? AND l.reviewer <> ? AND l.source = 'random' AND NOT l.adjudicated AND ${LIVE_LABEL('l')} LIMIT 1`,
    taskId, reviewer
  )
  if (other !== undefined) {
    throw new StoreError(
      'conflict',
      `task ${taskId} holds ${other.reviewer}'s blind label (the calibration set): only an adjudication changes its label — flag the task for an adjudicator`,
      { taskId, reason: 'calibration-set', blindLabeler: other.reviewer }
    )
  }
}
