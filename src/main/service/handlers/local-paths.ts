import type { CallContext } from '../../../shared/api'
import { ApiError } from '../../../shared/errors'

/**
 * A console names no file path: the browser console uploads what it imports and downloads what it
 * exports; the desktop app's window has its main process open a dialog for the file to import
 * (`imports.pick`) and saves what it exports — a renderer shows hostile transcripts, so a
 * compromised one must not read or write the machine's files through the contract. Only the
 * process's own code (the CLI) calls with a path.
 */
export function refuseHostPathFromConsole(ctx: CallContext, what: string): void {
  if (ctx.shell === 'web') {
    throw new ApiError('bad_input', `${what} takes no file path in the browser console: upload the file, or download the export, instead`)
  }
  if (ctx.shell === 'electron') {
    throw new ApiError('bad_input', `${what} takes no file path from the app's window: choose the file to upload, or save the export, instead`)
  }
}
