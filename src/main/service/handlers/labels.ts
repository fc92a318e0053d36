/** Resolve, undo, recent labels: one store transaction each, durable before the call returns. */
import type { LabelSource, ServerHandlers } from '../../../shared/api'
import type { LabelRecord } from '../../store'
import type { Core } from '../core'
import { actorOf } from '../core'
import { maskConflict, maskRecentLabels } from '../sealed'
import { labelView } from '../task-detail'
import { isAdjudicator, readTeamSettings } from '../team-settings'

type H = Pick<ServerHandlers, 'labels.resolve' | 'labels.undo' | 'labels.recent'>

/**
 * A blind label is one given before the task's verdict was seen (docs/engine.md §10). Committing a
 * label reveals the verdict, so a `random` label from a reviewer who has labeled the task before is
 * stored as `escalation` — unless it replaces their live blind label on the same draw (the store
 * checks the draw): that is the labeler's change of mind, and the task stays in the calibration set.
 */
async function storedSource(core: Core, reviewer: string, taskId: string, asked: LabelSource, own: LabelRecord | null): Promise<LabelSource> {
  if (asked !== 'random') return asked
  if (own !== null && own.source === 'random' && !own.adjudicated) return 'random'
  const before = await core.store().reviewerLabels({ reviewer, taskId, limit: 1 })
  return before.length > 0 ? 'escalation' : 'random'
}

export function labelHandlers(core: Core): H {
  return {
    'labels.resolve': async ({ taskId, label, expectedVersion, source: asked, note }, ctx) => {
      // A reviewer who resolves a task again changes their own label (the old one is superseded
      // in the same write); the version check makes this read-then-write safe.
      const own = (await core.store().liveLabels(taskId)).find((l) => l.reviewer === ctx.reviewer) ?? null
      const source = await storedSource(core, ctx.reviewer, taskId, asked, own)
      const r = await core.store()
        // `random` only for a task Calibrate drew for this session: the draw decides.
        .recordLabel({ taskId, label, source, reviewer: ctx.reviewer, note, expectedVersion, supersedes: own?.id ?? null, requireDraw: true }, actorOf(ctx))
        .catch(async (e: unknown) => {
          throw await maskConflict(core.store(), ctx, taskId, e)
        })
      core.changed(r.topics)
      return { ...r.value, refitScheduled: await core.labelsChanged(), source }
    },
    'labels.undo': async ({ labelId, expectedVersion }, ctx) => {
      // The store lets a label's own reviewer undo it, a ruling only an adjudicator, a blind label nobody.
      const mayUndoRulings = isAdjudicator(await readTeamSettings(core.store()), ctx)
      const r = await core.store().undoLabel({ labelId, expectedVersion, mayUndoRulings, keepBlind: true }, actorOf(ctx))
      core.changed(r.topics)
      return { ...r.value, refitScheduled: await core.labelsChanged() }
    },
    'labels.recent': async ({ limit }, ctx) =>
      maskRecentLabels(core.store(), ctx, (await core.store().recentLabels(limit)).map((l) => ({ ...labelView(l), question: l.question, live: l.live })))
  }
}
