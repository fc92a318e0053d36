/**
 * Team mode's calls: the team settings (reviewers per task N, adjudicators), the list
 * of disagreements awaiting adjudication, and an adjudicator's ruling — recorded as a label with
 * `adjudicated` set, its source the source of the task's labels, audited as `label.adjudicate`.
 */
import type { LabelSource, ServerHandlers } from '../../../shared/api'
import { ApiError } from '../../../shared/errors'
import { topicsOf, type AwaitingTask } from '../../store'
import type { Core } from '../core'
import { actorOf } from '../core'
import { labelView } from '../task-detail'
import { isAdjudicator, readTeamSettings, requireAdjudicator, updateTeamSettings } from '../team-settings'

type H = Pick<ServerHandlers, 'team.getSettings' | 'team.updateSettings' | 'adjudicate.list' | 'adjudicate.resolve'>

/**
 * A ruling on blind labels stays blind (`random`, so the certificate may use it): a task drawn at
 * random is still a random draw. If any of its labels came from the escalation queue, it is not.
 */
export function rulingSource(task: AwaitingTask): LabelSource {
  return task.labels.every((l) => l.source === 'random') ? 'random' : 'escalation'
}

export function teamHandlers(core: Core): H {
  return {
    'team.getSettings': () => readTeamSettings(core.store()),
    'team.updateSettings': async ({ patch }, ctx) => {
      // Only an adjudicator changes the team settings: otherwise a reviewer could name themselves
      // and undo a ruling, or set N to 1 to read a teammate's blind label and set it back.
      await requireAdjudicator(core.store(), ctx, 'changing the team settings')
      const settings = await updateTeamSettings(core.store(), patch, actorOf(ctx))
      // N decides what Calibrate draws and what awaits adjudication: both views refresh.
      core.changed([...topicsOf('setSettings'), 'labels'])
      return settings
    },
    'adjudicate.list': async ({ offset, limit }, ctx) => {
      const team = await readTeamSettings(core.store())
      const page = await core.store().awaitingAdjudication({ reviewersPerTask: team.reviewersPerTask, taskId: null, offset, limit })
      return {
        rows: page.rows.map((t) => ({ taskId: t.taskId, question: t.question, group: t.group, candidates: t.candidates, version: t.version, labels: t.labels.map(labelView) })),
        total: page.total, offset, limit,
        canAdjudicate: isAdjudicator(team, ctx)
      }
    },
    'adjudicate.resolve': async ({ taskId, label, expectedVersion, note }, ctx) => {
      const store = core.store()
      const team = await requireAdjudicator(store, ctx, 'a ruling')
      const [task] = (await store.awaitingAdjudication({ reviewersPerTask: team.reviewersPerTask, taskId, offset: 0, limit: 1 })).rows
      if (task === undefined) {
        const { version } = await store.getTaskSummary(taskId)
        if (version !== expectedVersion) throw new ApiError('conflict', `task ${taskId} changed since it was read (version ${expectedVersion}, now ${version}): reload it`)
        throw new ApiError('bad_input', `task ${taskId} is not awaiting adjudication: its reviewers agree, it is still sealed, or it was adjudicated`)
      }
      // A judge of her own dispute is no judge: a reviewer with a vote on the task does not rule on it.
      if (task.labels.some((l) => l.reviewer === ctx.reviewer)) {
        throw new ApiError('unauthorized', `${ctx.reviewer} labeled task ${taskId}: another adjudicator rules on a disagreement she is part of`)
      }
      const r = await store.recordLabel(
        { taskId, label, source: rulingSource(task), reviewer: ctx.reviewer, note, expectedVersion, adjudicated: true },
        actorOf(ctx)
      )
      core.changed(r.topics)
      return { ...r.value, refitScheduled: await core.labelsChanged(), source: rulingSource(task) }
    }
  }
}
