import type { CallContext } from '../../../shared/api'
import { ApiError } from '../../../shared/errors'

/**
 * File paths on the host are for the desktop app and the CLI, whose user owns the machine. Over
 * the web host a call names no path: the browser uploads what it imports and downloads what it
 * exports, so a holder of a console token can never read or write the server's files.
 */
export function refuseHostPathOverWeb(ctx: CallContext, what: string): void {
  if (ctx.shell === 'web') {
    throw new ApiError('bad_input', `${what} takes no file path in the browser console: upload the file, or download the export, instead`)
  }
}
