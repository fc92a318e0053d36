/**
 * A test's Calibrate draw of a task it names. The console's draw is the server's uniform choice
 * (no client exclusions), so a test that needs a given task blind asks the store directly: first
 * whether the server could draw that task for the reviewer at all (the draw's own rule, every
 * other task left out), then makes it that login's open draw for the given session.
 */
import type { Actor, Store } from '../../src/main/store'
import { readTeamSettings } from '../../src/main/service/team-settings'

/** True when `taskId` was drawable for `actor` and is now their open draw; false when not drawable. */
export async function drawChosen(store: Store, actor: Actor, taskId: string, allIds: readonly string[]): Promise<boolean> {
  const { reviewersPerTask } = await readTeamSettings(store)
  const exclude = allIds.filter((t) => t !== taskId)
  const drawn = await store.drawUnlabeled({ at: 0, exclude, spotCheckOnly: false, reviewer: actor.reviewer, reviewersPerTask })
  if (drawn.taskId !== taskId) return false
  await store.recordDraw(taskId, actor)
  return true
}

/**
 * The session id the server gives `reviewer`'s calls from one tab (over HTTP the login's session
 * prefix is the web host's secret): that tab asks Calibrate for a draw, which hands the login's draw
 * to it, and the store says which session holds it.
 */
export async function sessionOfTab(store: Store, reviewer: string, askDraw: () => Promise<unknown>): Promise<string> {
  await askDraw()
  const open = await store.openDrawOf(reviewer)
  if (open === null) throw new Error(`no draw for ${reviewer}: no task to draw`)
  return open.sessionId
}
