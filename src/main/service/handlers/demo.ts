/**
 * The demo badge and "start empty": a demo database is moved aside (kept, never deleted) and an
 * empty one opened in its place, so the console starts over without losing what the user tried.
 * Only for a file: on a PostgreSQL database it is refused (nothing is moved or deleted).
 */
import { existsSync, renameSync } from 'node:fs'
import type { ServerHandlers } from '../../../shared/api'
import { ApiError } from '../../../shared/errors'
import { isServerLocation, openStore, type Store } from '../../store'
import type { Core } from '../core'
import { DEMO_KEY } from '../engine-settings'

export interface DemoSwap {
  /** Closes the current store, opens the one `open` returns, and re-points the service at it. */
  swap(open: () => Promise<Store>): Promise<void>
}

export function demoMarker(settings: Record<string, unknown>): { createdAt: string | null; seed: number | null } | null {
  const m = settings[DEMO_KEY]
  if (m === null || typeof m !== 'object') return null
  const o = m as Record<string, unknown>
  return { createdAt: typeof o.createdAt === 'string' ? o.createdAt : null, seed: typeof o.seed === 'number' ? o.seed : null }
}

export function demoHandlers(core: Core, swap: DemoSwap): Pick<ServerHandlers, 'demo.status' | 'demo.startEmpty'> {
  return {
    'demo.status': async () => {
      const m = demoMarker(await core.store().getSettings())
      return { demo: m !== null, createdAt: m?.createdAt ?? null, seed: m?.seed ?? null }
    },
    'demo.startEmpty': async () => {
      if (demoMarker(await core.store().getSettings()) === null) {
        throw new ApiError('conflict', 'this database is not the demo; start empty only replaces a demo database')
      }
      const dbLocation = core.opts.dbLocation
      if (isServerLocation(dbLocation)) {
        // Moving aside is a file operation: a server database is kept as it is, never emptied here.
        throw new ApiError('bad_input', 'start empty moves the demo database file aside; this console is on a PostgreSQL database, which it never moves or empties: create a new database on the server and open that one instead')
      }
      const stamp = new Date().toISOString().replace(/[-:]/g, '').replace('.', '')
      const movedTo = `${dbLocation}.demo-${stamp}`
      await swap.swap(async () => {
        // Closed first (the swap does it): the WAL is checkpointed into the file, so one rename moves it all.
        for (const suffix of ['', '-wal', '-shm']) if (existsSync(dbLocation + suffix)) renameSync(dbLocation + suffix, movedTo + suffix)
        return openStore(dbLocation, core.opts.nativeBinding === null ? {} : { nativeBinding: core.opts.nativeBinding })
      })
      return { dbLocation, demoMovedTo: movedTo }
    }
  }
}
