import { resolve } from 'node:path'
import { existsSync } from 'node:fs'
import { openStore } from './store'
import { createService, type Service } from './service'
import { createDemoDatabase, isFirstLaunch } from './service/demo'
import { startWebHost, type WebHost } from './host/web'

/** The built renderer the web host serves (`npm run build` writes it). */
export const DEFAULT_RENDERER_DIR = resolve(__dirname, '../../out/renderer')

export interface ConsoleServerOptions {
  dbLocation: string
  port?: number
  /** When `port` is taken, listen on a free one instead of failing (`host.busyPort` says so). */
  portFallback?: boolean
  token?: string
  /** One login (token, URL) per reviewer name; absent: one login, reviewer from Settings. */
  reviewers?: readonly string[]
  /**
   * Names these reviewers the team's adjudicators at start, as the operator (the CLI) would: with
   * per-reviewer logins nobody adjudicates until someone is named, and only an adjudicator names others.
   */
  adjudicators?: readonly string[]
  rendererDir?: string
  /** A browser session's idle lifetime (web host default: 12 h). */
  sessionIdleMs?: number
  /** The clock of session expiry (tests). */
  clock?: () => number
  /**
   * Create the demo database when `dbLocation` does not exist yet. Default: only for the default
   * database (a first launch); a path the user names starts empty.
   */
  demoIfMissing?: boolean
}

export interface ConsoleServer {
  host: WebHost
  service: Service
  close(): Promise<void>
}

/** `arbiter serve` and the e2e tests: store → service → web host, on 127.0.0.1. */
export async function startConsoleServer(opts: ConsoleServerOptions): Promise<ConsoleServer> {
  const rendererDir = opts.rendererDir ?? DEFAULT_RENDERER_DIR
  if (!existsSync(resolve(rendererDir, 'index.html'))) {
    throw Object.assign(new Error(`no renderer build in ${rendererDir}: run \`npm run build\` first`), { code: 'internal' })
  }
  if (isFirstLaunch(opts.dbLocation, opts.demoIfMissing)) await createDemoDatabase(opts.dbLocation, { shell: 'web' })
  const store = await openStore(opts.dbLocation)
  const service = await createService({ store, dbLocation: opts.dbLocation, nativeBinding: null, shell: 'web' })
  try {
    if (opts.adjudicators !== undefined && opts.adjudicators.length > 0) {
      const unknown = opts.adjudicators.filter((a) => !(opts.reviewers ?? []).includes(a))
      if (unknown.length > 0) throw Object.assign(new Error(`adjudicator ${unknown.join(', ')} has no login: name them with --reviewer too`), { code: 'bad_input' })
      await service.handlers['team.updateSettings']({ patch: { adjudicators: [...opts.adjudicators] } }, { ...service.context(), shell: 'cli' })
    }
    const host = await startWebHost({
      handlers: service.handlers,
      subscribe: service.subscribe,
      context: service.context,
      rendererDir,
      port: opts.port,
      portFallback: opts.portFallback,
      token: opts.token,
      reviewers: opts.reviewers,
      sessionIdleMs: opts.sessionIdleMs,
      clock: opts.clock
    })
    return {
      host,
      service,
      async close() {
        await host.close()
        await service.close()
      }
    }
  } catch (error) {
    await service.close()
    throw error
  }
}
