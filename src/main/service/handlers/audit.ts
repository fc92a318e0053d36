/** The Audit screen's calls: the summary, computed in a worker thread and cached, and the same as an HTML report. */
import { basename } from 'node:path'
import type { AuditSummary, CallContext, ServerHandlers } from '../../../shared/api'
import { isServerLocation } from '../../store'
import { AuditCache, auditKey } from '../audit/cache'
import { withDrawCounts } from '../audit/reviewers'
import { renderReport } from '../audit/report'
import type { Core } from '../core'
import { readEngineSettings } from '../engine-settings'

type H = Pick<ServerHandlers, 'audit.summary' | 'audit.report'>

export function auditHandlers(core: Core): H {
  const cache = new AuditCache()
  const summary = async (ctx: CallContext): Promise<AuditSummary> => {
    const store = core.store()
    const settings = await readEngineSettings(store)
    // The job reads on its own connection, after the key: a label landing in between is already
    // in the summary cached under the older key, and the next open sees a new key and recomputes.
    // The cache never serves a summary older than its key.
    const key = await auditKey(store, settings)
    const a = await cache.get(key, async () => {
      const { value } = await core.job({ kind: 'audit', dbLocation: core.opts.dbLocation, nativeBinding: core.opts.nativeBinding, settings, actor: core.actor(ctx) })
      return value
    })
    return { ...a, reviewers: withDrawCounts(a.reviewers, await store.drawCounts()) }
  }
  return {
    'audit.summary': async (_args, ctx) => summary(ctx),
    'audit.report': async (_args, ctx) => {
      const a = await summary(ctx)
      // A console's logins see the database by name only: neither the server's folders nor a server URL.
      const loc = core.opts.dbLocation
      const source = isServerLocation(loc) ? 'the PostgreSQL database' : basename(loc)
      return { fileName: `arbiter-report-${a.computedAt.slice(0, 10)}.html`, content: renderReport(a, source) }
    }
  }
}
