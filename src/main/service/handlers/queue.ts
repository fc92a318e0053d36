/** Queue, task detail, reservations (an adjudicator's release of another's too) and Calibrate's draw. */
import { randomInt } from 'node:crypto'
import type { CalibrateDrawResult, CallContext, QueueRow, ServerHandlers } from '../../../shared/api'
import type { TaskRow } from '../../store'
import type { Core } from '../core'
import { actorOf } from '../core'
import { hideDrawnVerdicts, openDrawsFor } from '../drawn'
import { maskQueueRows, sealedFor, sealedViewerOf } from '../sealed'
import { taskDetail } from '../task-detail'
import { readTeamSettings, requireAdjudicator } from '../team-settings'

/**
 * How long opening a task holds it for this window (10 minutes). The review screen
 * renews it every minute while it stays open and releases it when the reviewer leaves; a window
 * closed without a word gives the task back when the hold expires.
 */
export const RESERVATION_MS = 10 * 60_000

/**
 * How long a Calibrate draw takes its blind label (30 minutes): long enough to read a long
 * transcript, short enough that a draw left open is soon a counted skip (docs/team.md).
 */
export const DRAW_MS = 30 * 60_000

export function queueRow(r: TaskRow): QueueRow {
  return {
    taskId: r.taskId, question: r.question, group: r.group, candidates: r.candidates, createdAt: r.createdAt, version: r.version, moves: r.moves,
    state: r.state, decision: r.decision, spotCheck: r.spotCheck, answer: r.answer, posterior: r.posterior, stopRound: r.stopRound,
    gap: r.gap, bound: r.bound, disagreement: r.disagreement,
    label: r.label === null ? null : { labelId: r.label.labelId, label: r.label.label, source: r.label.source, reviewer: r.label.reviewer, at: r.label.at },
    reservedBy: r.reservedBy,
    flags: r.flags
  }
}

type H = Pick<ServerHandlers, 'queue.page' | 'queue.facets' | 'task.detail' | 'task.reserve' | 'task.release' | 'task.releaseHold' | 'calibrate.draw' | 'calibrate.skip'>

export function queueHandlers(core: Core): H {
  return {
    // The caller's queue: tasks another session holds are left out (its own stay in); labels the
    // caller may not see yet (sealed) are masked, and so is the verdict of a task drawn for them blind.
    'queue.page': async ({ filter, sort, direction, offset, limit }, ctx) => {
      const sealedViewer = await sealedViewerOf(core.store(), ctx)
      const page = await core.store().queuePage({ filter, sort, direction, offset, limit, viewerSession: ctx.sessionId, sealedViewer, drawnFor: ctx.reviewer })
      // The page says which of its tasks were drawn for the caller (its own snapshot, no second read).
      const rows = hideDrawnVerdicts(await maskQueueRows(core.store(), ctx, page.rows.map(queueRow)), new Set(page.drawn))
      return { rows, total: page.total, heldByOthers: page.heldByOthers, offset, limit, fitId: page.fitId }
    },
    'queue.facets': () => core.store().facets(),
    'task.detail': async ({ taskId, blind }, ctx) => {
      const hidden = (await sealedFor(core.store(), ctx, [taskId])).has(taskId)
      const drawn = (await openDrawsFor(core.store(), ctx, [taskId])).has(taskId)
      return taskDetail(core.store(), core.models, taskId, blind, ctx, hidden, drawn)
    },
    'task.reserve': async ({ taskId, seenVersion }, ctx) => {
      const r = await core.store().reserveTask(taskId, actorOf(ctx), RESERVATION_MS, seenVersion)
      // A renewal (the review screen's heartbeat) changes no one's queue: no event.
      if (r.value.mine !== null && !r.value.renewed) core.changed(r.topics)
      return { mine: r.value.mine, heldBy: r.value.heldBy, passedOver: r.value.passedOver }
    },
    'task.release': async ({ taskId }, ctx) => {
      const r = await core.store().releaseTask(taskId, actorOf(ctx))
      if (r.value) core.changed(r.topics)
      return { released: r.value }
    },
    // A uniform draw (docs/engine.md §10): the random number comes from the OS, the pick from the store;
    // with N reviewers per task, among the tasks this reviewer may still label blind. The store keeps
    // the login's one open draw: asked again, it answers that one.
    'calibrate.draw': async ({ spotCheckOnly, after }, ctx) => draw(core, ctx, spotCheckOnly, false, after),
    'calibrate.skip': async ({ taskId, spotCheckOnly }, ctx) => {
      const open = await draw(core, ctx, spotCheckOnly, false)
      // A skip names the task it skips: a late click never skips a draw its window has not shown.
      if (open.taskId !== taskId) return open
      return draw(core, ctx, spotCheckOnly, true)
    },
    // An adjudicator ends another reviewer's hold, e.g. of a window left open.
    'task.releaseHold': async ({ taskId }, ctx) => {
      await requireAdjudicator(core.store(), ctx, "releasing another reviewer's hold")
      const r = await core.store().releaseHold(taskId, actorOf(ctx))
      if (r.value !== null) core.changed(r.topics)
      return { released: r.value }
    }
  }
}

async function draw(core: Core, ctx: CallContext, spotCheckOnly: boolean, skip: boolean, after: string | null = null): Promise<CalibrateDrawResult> {
  const { reviewersPerTask } = await readTeamSettings(core.store())
  const at = randomInt(0, 2 ** 47) / 2 ** 47
  return (await core.store().calibrateDraw({ at, spotCheckOnly, reviewersPerTask, skip, ttlMs: DRAW_MS, after }, actorOf(ctx))).value
}
