/**
 * The demo badge and "start empty": a demo database is moved aside (kept, never deleted) and an
 * empty one opened in its place, so the console starts over without losing what the user tried.
 * Only for one person's demo file: a team's login, a PostgreSQL database, or a demo that has since
 * received the user's own imports is refused (nothing is moved or deleted).
 */
import { existsSync, renameSync } from 'node:fs'
import type { CallContext, ServerHandlers } from '../../../shared/api'
import { ApiError } from '../../../shared/errors'
import { isServerLocation, openStore, type Store } from '../../store'
import type { Core } from '../core'
import { DEMO_ACTOR, DEMO_IMPORTS } from '../demo'
import { DEMO_KEY } from '../engine-settings'

export interface DemoSwap {
  /** Closes the current store, opens the one `open` returns, and re-points the service at it. */
  swap(open: () => Promise<Store>): Promise<void>
  /** Tells every open console its database was replaced. */
  replaced(by: string, demoMovedTo: string): void
}

export function demoMarker(settings: Record<string, unknown>): { createdAt: string | null; seed: number | null } | null {
  const m = settings[DEMO_KEY]
  if (m === null || typeof m !== 'object') return null
  const o = m as Record<string, unknown>
  return { createdAt: typeof o.createdAt === 'string' ? o.createdAt : null, seed: typeof o.seed === 'number' ? o.seed : null }
}

/** How many imports to look through for one of the user's own (the demo records three). */
const IMPORTS_LOOKED_AT = DEMO_IMPORTS.length + 1

/** Why this caller may not start empty (null: they may), with the error code the call is refused with. */
async function startEmptyRefusal(core: Core, ctx: CallContext): Promise<ApiError | null> {
  // A login of `serve --reviewer` is one of a team's: the database is everyone's, not one reviewer's to replace.
  if (ctx.reviewerFromToken === true) {
    return new ApiError('unauthorized', 'start empty is not available in team mode: this database is shared by every login of this server, so no reviewer may replace it')
  }
  const store = core.store()
  if (demoMarker(await store.getSettings()) === null) {
    return new ApiError('conflict', 'this database is not the demo; start empty only replaces a demo database')
  }
  if (isServerLocation(core.opts.dbLocation)) {
    // Moving aside is a file operation: a server database is kept as it is, never emptied here.
    return new ApiError('bad_input', 'start empty moves the demo database file aside; this console is on a PostgreSQL database, which it never moves or empties: create a new database on the server and open that one instead')
  }
  const own = (await store.listImports(IMPORTS_LOOKED_AT)).find((i) => i.state !== 'abandoned' && !(i.createdBy === DEMO_ACTOR && DEMO_IMPORTS.includes(i.fileName)))
  if (own !== undefined) {
    return new ApiError('conflict', `this demo database has since received your own data (${own.fileName}), so start empty no longer replaces it; open another database file instead`)
  }
  return null
}

export function demoHandlers(core: Core, swap: DemoSwap): Pick<ServerHandlers, 'demo.status' | 'demo.startEmpty'> {
  return {
    'demo.status': async (_args, ctx) => {
      const m = demoMarker(await core.store().getSettings())
      const refusal = m === null ? 'this database is not the demo' : ((await startEmptyRefusal(core, ctx))?.message ?? null)
      return { demo: m !== null, createdAt: m?.createdAt ?? null, seed: m?.seed ?? null, startEmptyRefusal: refusal }
    },
    'demo.startEmpty': async (_args, ctx) => {
      const refusal = await startEmptyRefusal(core, ctx)
      if (refusal !== null) throw refusal
      const dbLocation = core.opts.dbLocation
      const stamp = new Date().toISOString().replace(/[-:]/g, '').replace('.', '')
      const movedTo = `${dbLocation}.demo-${stamp}`
      await swap.swap(async () => {
        // Closed first (the swap does it): the WAL is checkpointed into the file, so one rename moves it all.
        for (const suffix of ['', '-wal', '-shm']) if (existsSync(dbLocation + suffix)) renameSync(dbLocation + suffix, movedTo + suffix)
        return openStore(dbLocation, core.opts.nativeBinding === null ? {} : { nativeBinding: core.opts.nativeBinding })
      })
      swap.replaced(ctx.reviewer, movedTo)
      return { dbLocation, demoMovedTo: movedTo }
    }
  }
}
