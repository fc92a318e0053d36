/** The Audit screen's call: the summary, computed in a worker thread and cached. */
import type { ServerHandlers } from '../../../shared/api'
import { AuditCache, auditKey } from '../audit/cache'
import type { Core } from '../core'
import { readEngineSettings } from '../engine-settings'

type H = Pick<ServerHandlers, 'audit.summary'>

export function auditHandlers(core: Core): H {
  const cache = new AuditCache()
  return {
    'audit.summary': async (_args, ctx) => {
      const store = core.store()
      const settings = await readEngineSettings(store)
      // The job reads on its own connection, after the key: a label landing in between is already
      // in the summary cached under the older key, and the next open sees a new key and recomputes.
      // The cache never serves a summary older than its key.
      const key = await auditKey(store, settings)
      return cache.get(key, async () => {
        const { value } = await core.job({ kind: 'audit', dbLocation: core.opts.dbLocation, nativeBinding: core.opts.nativeBinding, settings, actor: core.actor(ctx) })
        return value
      })
    }
  }
}
