/** Flag / can't decide: an append-only record, not a label; it hands the task back. */
import type { ServerHandlers } from '../../../shared/api'
import type { Core } from '../core'
import { actorOf } from '../core'
import { flagView } from '../task-detail'

export function flagHandlers(core: Core): Pick<ServerHandlers, 'flags.add'> {
  return {
    'flags.add': async ({ taskId, reason }, ctx) => {
      const r = await core.store().flagTask({ taskId, reason }, actorOf(ctx))
      core.changed(r.topics)
      return flagView(r.value)
    }
  }
}
