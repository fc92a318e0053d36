/** Calibrate: the blind draw of an unlabeled task (docs/engine.md §10's random labels). */
import { z } from 'zod'
import { defineCalls, id, query, returns } from './call'

export interface DrawResult {
  taskId: string | null
  /** Unlabeled tasks left to draw from. */
  unlabeled: number
  /** Tasks with a live `random` label so far (the calibration set's size; one task may hold several reviewers' labels). */
  randomLabels: number
}

export const calibrateCalls = defineCalls({
  /**
   * A query though it records the draw for the caller's session (that record is what lets a
   * `random` label in): the record changes no topic, and the console asks again after each label.
   */
  'calibrate.draw': query(
    z.object({ exclude: z.array(id).max(10_000).default([]), spotCheckOnly: z.boolean().default(false) }).strict(),
    returns<DrawResult>(),
    ['labels']
  )
})
