/**
 * The reviewer's own labels: the history panel, and undo as the store
 * keeps it — the caller's latest live label of one screen's source, so an undo survives a reload,
 * follows the reviewer to any window, and never takes back another screen's label (Review undoes
 * escalation labels, never a ruling; a blind label is replaced on its draw, never undone:
 * ops/calibration-set.ts). An undo of a label whose task has moved on since is the store's
 * `conflict` (ops/labels.ts `requireNotMovedOn`).
 */
import type { HistoryLabel, ServerHandlers } from '../../../shared/api'
import type { ReviewerLabel } from '../../store'
import type { Core } from '../core'
import { actorOf } from '../core'
import { labelView } from '../task-detail'

type H = Pick<ServerHandlers, 'labels.history' | 'labels.undoLast'>

export function historyLabel(l: ReviewerLabel): HistoryLabel {
  return { ...labelView(l), question: l.question, live: l.live, taskVersion: l.taskVersion, movedOn: l.movedOn }
}

export function historyHandlers(core: Core): H {
  return {
    // Only the caller's own labels: nothing here is sealed for them (a live one they gave opens its task).
    'labels.history': async ({ source, limit }, ctx) =>
      (await core.store().reviewerLabels({ reviewer: ctx.reviewer, source, limit })).map(historyLabel),
    'labels.undoLast': async ({ source }, ctx) => {
      const [last] = await core.store().reviewerLabels({ reviewer: ctx.reviewer, source, liveOnly: true, adjudicated: false, limit: 1 })
      if (last === undefined) return { undone: null }
      // The version read with it: a label written in between is a conflict, never a silent undo.
      const r = await core.store().undoLabel({ labelId: last.id, expectedVersion: last.taskVersion, keepBlind: true }, actorOf(ctx))
      core.changed(r.topics)
      return { undone: historyLabel(last), ...r.value, refitScheduled: await core.labelsChanged() }
    }
  }
}
