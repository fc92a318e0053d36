import type { ServerHandlers } from '../../../shared/api'
import type { Core } from '../core'
import { runExport } from '../export'
import { refuseHostPathFromConsole } from './local-paths'

export function exportHandlers(core: Core): Pick<ServerHandlers, 'export.run'> {
  return {
    'export.run': async ({ what, filter, format, path }, ctx) => {
      if (path !== null) refuseHostPathFromConsole(ctx, 'export')
      // Under the caller's sealed rule, as their queue.
      return runExport(core.store(), what, filter, format, path, ctx)
    }
  }
}
