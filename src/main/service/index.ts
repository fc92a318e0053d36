import { randomUUID } from 'node:crypto'
import type { CallContext, EngineSettings, ServerHandlers, Settings } from '../../shared/api'
import type { Topic } from '../../shared/events'
import { openStore, topicsOf, type Store } from '../store'
import { APP_VERSION } from '../version'
import { actorOf, ALL_TOPICS, runJobWithEvents, type Core, type ServiceOptions } from './core'
import { demoHandlers } from './handlers/demo'
import { exportHandlers } from './handlers/export'
import { fitHandlers } from './handlers/fits'
import { importHandlers } from './handlers/imports'
import { Uploads } from './uploads'
import { flagHandlers } from './handlers/flags'
import { historyHandlers } from './handlers/history'
import { labelHandlers } from './handlers/labels'
import { queueHandlers } from './handlers/queue'
import { auditHandlers } from './handlers/audit'
import { teamHandlers } from './handlers/team'
import { maskAuditEntries } from './sealed'
import { EventHub } from './event-hub'
import { readEngineSettings } from './engine-settings'
import { ModelCache } from './fit/model'
import { FitRunner } from './fit/runner'
import { markingEachCall, ReviewerActivity } from './jobs/give-way'
import { jobThreadsExited } from './jobs/runner'
import { asSeenBy, refuseNameChange, settingsFromStored } from './settings'
import { watchExternalWrites } from './watch'

export type { ServiceOptions } from './core'

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
 * the same events. Long jobs (imports, fits) run in worker threads with their own connection.
 */
export async function createService(opts: ServiceOptions): Promise<Service> {
  let store: Store = opts.store
  const hub = new EventHub()
  const sessionId = randomUUID()
  let settings: Settings = settingsFromStored(await store.getSettings())

  const context = (): CallContext => ({ sessionId, reviewer: settings.reviewer, shell: opts.shell })
  // The engine settings a label's refit decision reads, cached: a resolve is one call fewer to the
  // database. Every settings write, here or (through the watcher) elsewhere, passes `changed`.
  let engineSettings: Promise<EngineSettings> | null = null
  const changed = (topics: Topic[]) => {
    if (topics.includes('settings')) engineSettings = null
    if (topics.length > 0) hub.emit({ type: 'changed', topics })
  }
  const models = new ModelCache()
  // Every call served marks it: the service's fits give way to its reviewers (jobs/give-way.ts).
  const activity = new ReviewerActivity()
  const fits = new FitRunner(
    async (redecide, actor) => {
      const { value } = await runJobWithEvents(hub, {
        kind: 'fit', dbLocation: opts.dbLocation, nativeBinding: opts.nativeBinding,
        settings: await readEngineSettings(store), redecide, actor: actor ?? actorOf(context()), activity: activity.buffer
      })
      return value
    },
    (fit) => {
      models.clear()
      // A fit job saves the fit, backfills tallies, and finishes its decisions in its own thread.
      changed(topicsOf('saveFit', 'saveTallies', 'finishDecisions'))
      hub.emit({ type: 'fit-landed', fitId: fit.id })
    }
  )
  const core: Core = {
    store: () => store,
    opts,
    hub,
    models,
    fits,
    changed,
    actor: actorOf,
    job: (request) => runJobWithEvents(hub, request),
    labelsChanged: async () => {
      const s = await (engineSettings ??= readEngineSettings(store).catch((e: unknown) => {
        engineSettings = null
        throw e
      }))
      if (!s.autoRefit) return false
      fits.schedule(s.refitDelayMs)
      return true
    }
  }

  let stopWatching = () => {}
  const watch = () => {
    stopWatching = watchExternalWrites(store, (topics) => {
      if (topics.includes('settings')) void store.getSettings().then((s) => (settings = settingsFromStored(s)))
      // The model cache is keyed by fit id: only another fit (or a rollback) can make it stale.
      if (topics.includes('fits')) models.clear()
      changed(topics)
    })
  }
  const uploads = new Uploads(opts.uploads)
  let integrityCheck: ReturnType<ServerHandlers['db.checkIntegrity']> | null = null

  const handlers: ServerHandlers = {
    'app.info': async (_args, ctx) => {
      const info = await store.info()
      return {
        version: APP_VERSION, shell: ctx.shell, backend: info.backend, dbLocation: info.dbLocation, schemaVersion: info.schemaVersion,
        reviewerFromToken: ctx.reviewerFromToken === true
      }
    },
    'app.counts': () => store.counts(),
    'settings.get': async (_args, ctx) => {
      settings = settingsFromStored(await store.getSettings())
      return asSeenBy(settings, ctx)
    },
    'settings.update': async ({ patch }, ctx) => {
      refuseNameChange(patch, ctx)
      const result = await store.setSettings(patch, ctx)
      settings = settingsFromStored(await store.getSettings())
      changed(result.topics)
      return asSeenBy(settings, ctx)
    },
    // One check at a time: it reads the whole database, and a check asked for while one runs
    // gets that one's result (nothing can have been checked better by starting another).
    'db.checkIntegrity': () =>
      (integrityCheck ??= runJobWithEvents(hub, { kind: 'integrity-check', dbLocation: opts.dbLocation, nativeBinding: opts.nativeBinding })
        .then(({ jobId, value }) => ({ ...value, checkedAt: new Date().toISOString(), jobId }))
        .finally(() => (integrityCheck = null))),
    'audit.tail': async ({ limit }, ctx) =>
      maskAuditEntries(store, ctx, (await store.auditTail(limit)).map((a) => ({ seq: a.seq, at: a.at, reviewer: a.reviewer, shell: a.shell, action: a.action, target: a.target, details: a.details }))),
    ...queueHandlers(core),
    ...auditHandlers(core),
    ...teamHandlers(core),
    ...labelHandlers(core),
    ...historyHandlers(core),
    ...flagHandlers(core),
    ...importHandlers(core, uploads),
    ...fitHandlers(core),
    ...exportHandlers(core),
    ...demoHandlers(core, {
      swap: async (open) => {
        stopWatching()
        await fits.idle()
        await store.close()
        try {
          store = await open()
        } catch (e) {
          // Whatever happened, the service keeps a database: the one at the path now.
          store = await openStore(opts.dbLocation, opts.nativeBinding === null ? {} : { nativeBinding: opts.nativeBinding })
          watch()
          throw e
        }
        models.forget()
        settings = settingsFromStored(await store.getSettings())
        watch()
        changed(ALL_TOPICS)
      },
      replaced: (by, demoMovedTo) => hub.emit({ type: 'database-replaced', by, demoMovedTo })
    })
  }

  watch()
  return {
    handlers: markingEachCall(handlers, activity),
    subscribe: hub.subscribe,
    context,
    async close() {
      stopWatching()
      await fits.close()
      uploads.close()
      await store.close()
      await jobThreadsExited(opts.dbLocation)
    }
  }
}
