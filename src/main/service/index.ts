import { randomUUID } from 'node:crypto'
import type { CallContext, ServerHandlers, Settings, Shell } from '../../shared/api'
import type { Topic } from '../../shared/events'
import type { Store } from '../store'
import { APP_VERSION } from '../version'
import { EventHub } from './event-hub'
import { runJob } from './jobs/runner'
import { settingsFromStored } from './settings'
import { watchExternalWrites } from './watch'

export interface ServiceOptions {
  store: Store
  /** The database file, for worker threads that open their own connection. */
  dbPath: string
  /** better-sqlite3 binary to load (Electron's ABI in the desktop app); null = the default. */
  nativeBinding: string | null
  shell: Shell
}

export interface Service {
  handlers: ServerHandlers
  subscribe: EventHub['subscribe']
  /** The context of a call from this process's own shell. */
  context: () => CallContext
  close(): Promise<void>
}

/**
 * The use cases behind the contract, shared by both shells and the CLI. Every write reports
 * the topics it changed as a `changed` event; a watcher turns other processes' writes into
 * the same events.
 */
export async function createService(opts: ServiceOptions): Promise<Service> {
  const { store } = opts
  const hub = new EventHub()
  const sessionId = randomUUID()
  let settings: Settings = settingsFromStored(await store.getSettings())

  const context = (): CallContext => ({ sessionId, reviewer: settings.reviewer, shell: opts.shell })
  const changed = (topics: Topic[]) => {
    if (topics.length > 0) hub.emit({ type: 'changed', topics })
  }

  const handlers: ServerHandlers = {
    'app.info': async (_args, ctx) => {
      const info = await store.info()
      return { version: APP_VERSION, shell: ctx.shell, backend: info.backend, location: info.path, schemaVersion: info.schemaVersion }
    },
    'app.counts': () => store.counts(),
    'settings.get': async () => {
      settings = settingsFromStored(await store.getSettings())
      return settings
    },
    'settings.update': async ({ patch }, ctx) => {
      const result = await store.setSettings(patch, ctx)
      settings = settingsFromStored(await store.getSettings())
      changed(result.topics)
      return settings
    },
    'db.checkIntegrity': async () => {
      const jobId = randomUUID()
      const kind = 'integrity-check'
      hub.emit({ type: 'job', jobId, kind, phase: 'started', done: 0, total: 1, message: null })
      try {
        const report = await runJob({ kind, dbPath: opts.dbPath, nativeBinding: opts.nativeBinding }, (p) =>
          hub.emit({ type: 'job', jobId, kind, phase: 'running', done: p.done, total: p.total, message: p.message })
        )
        hub.emit({ type: 'job', jobId, kind, phase: 'done', done: 1, total: 1, message: report.ok ? 'ok' : 'problems found' })
        return { ...report, checkedAt: new Date().toISOString(), jobId }
      } catch (error) {
        hub.emit({ type: 'job', jobId, kind, phase: 'failed', done: 0, total: 1, message: String((error as Error).message) })
        throw error
      }
    }
  }

  const stopWatching = watchExternalWrites(store, () => {
    void store.getSettings().then((s) => (settings = settingsFromStored(s)))
    changed(['tasks', 'labels', 'settings', 'fits', 'decisions', 'imports', 'audit'])
  })

  return {
    handlers,
    subscribe: hub.subscribe,
    context,
    async close() {
      stopWatching()
      await store.close()
    }
  }
}
