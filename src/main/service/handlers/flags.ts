/** Flag / can't decide: an append-only record, not a label; it hands the task back. */
import type { ServerHandlers } from '../../../shared/api'
import { FLAG_RATE } from '../../../shared/server-limits'
import type { Core } from '../core'
import { actorOf } from '../core'
import { RateLimiter } from '../rate-limit'
import { flagView } from '../task-detail'

export function flagHandlers(core: Core): Pick<ServerHandlers, 'flags.add'> {
  // Per login (its reviewer): every tab of a login shares one bucket.
  const limiter = new RateLimiter('flags', FLAG_RATE)
  return {
    'flags.add': async ({ taskId, reason }, ctx) => {
      limiter.take(ctx.reviewer)
      const r = await core.store().flagTask({ taskId, reason }, actorOf(ctx))
      core.changed(r.topics)
      return flagView(r.value)
    }
  }
}
