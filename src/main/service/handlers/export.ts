import type { ServerHandlers } from '../../../shared/api'
import type { Core } from '../core'
import { runExport } from '../export'

export function exportHandlers(core: Core): Pick<ServerHandlers, 'export.run'> {
  return {
    'export.run': ({ what, filter, format, path }) => runExport(core.store(), what, filter, format, path)
  }
}
