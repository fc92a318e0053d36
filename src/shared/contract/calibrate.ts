/** Calibrate: the blind draw of an unlabeled task (docs/engine.md §10's random labels). */
import { z } from 'zod'
import { command, defineCalls, id, query, returns } from './call'

export interface DrawResult {
  taskId: string | null
  /** Unlabeled tasks left to draw from. */
  unlabeled: number
  /** Tasks with a live `random` label so far (the calibration set's size; one task may hold several reviewers' labels). */
  randomLabels: number
}

/** The caller's draw (docs/team.md "Calibrate's draw"): at most one open per login, for a limited time. */
export interface CalibrateDrawResult extends DrawResult {
  /** When the draw stops taking a blind label (null: nothing drawn). */
  expiresAt: string | null
  /** Draws this login skipped (or let expire), and how many more it may skip. */
  skips: number
  skipsLeft: number
  /** The draw already has the caller's label (a console reopened on it shows it given, to change or move on from). */
  labeled: boolean
}

export const calibrateCalls = defineCalls({
  /**
   * A query though it records the draw for the caller's login (that record is what lets a
   * `random` label in): asked again, it answers the same open draw until it is labeled, skipped or
   * expires, so refetching draws nothing new. The server alone chooses: no exclusions but the
   * login's own skips.
   */
  'calibrate.draw': query(
    // `after`: the task the console moves on from. Not an exclusion: it only closes the caller's own
    // labeled draw of that task; without it a labeled draw is answered again while it lives.
    z.object({ spotCheckOnly: z.boolean().default(false), after: id.nullable().default(null) }).strict(),
    returns<CalibrateDrawResult>(),
    ['labels']
  ),
  /** Skips the caller's open draw of `taskId` (counted, capped per login) and draws anew. */
  'calibrate.skip': command(z.object({ taskId: id, spotCheckOnly: z.boolean().default(false) }).strict(), returns<CalibrateDrawResult>())
})
