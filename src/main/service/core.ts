import { randomUUID } from 'node:crypto'
import type { CallContext, Shell } from '../../shared/api'
import { TOPICS, type Topic } from '../../shared/vocabularies'
import type { Actor, Store } from '../store'
import type { EventHub } from './event-hub'
import type { ModelCache } from './fit/model'
import type { FitRunner } from './fit/runner'
import { runJob, type JobProgress } from './jobs/runner'
import type { JobRequest, JobResults } from './jobs/protocol'
import type { UploadsOptions } from './uploads'

export interface ServiceOptions {
  store: Store
  /** The database file, for worker threads that open their own connection. */
  dbLocation: string
  /** better-sqlite3 binary to load (Electron's ABI in the desktop app); null = the default. */
  nativeBinding: string | null
  shell: Shell
  /**
   * The desktop app's native open dialog (host/electron.ts): the path the user chose, or null when
   * they cancelled. Absent in the web host and the CLI, which have no dialog to open.
   */
  pickFile?: () => Promise<string | null>
  /** Where uploads wait and their caps (default: the system's temporary folder, UPLOAD_LIMITS). */
  uploads?: UploadsOptions
}

/** What every handler group shares. `store()` is a function: "start empty" swaps the database. */
export interface Core {
  store(): Store
  opts: ServiceOptions
  hub: EventHub
  models: ModelCache
  fits: FitRunner
  changed(topics: Topic[]): void
  actor(ctx: CallContext): Actor
  /** Runs a job in a worker thread, reporting `job` events; resolves with its result. */
  job<K extends JobRequest['kind']>(request: Extract<JobRequest, { kind: K }>): Promise<{ jobId: string; value: JobResults[K] }>
  /** A label or an import changed what a fit would see: refit in the background if allowed. */
  labelsChanged(): Promise<boolean>
}

export const ALL_TOPICS: Topic[] = [...TOPICS]

export function actorOf(ctx: CallContext): Actor {
  return { reviewer: ctx.reviewer, sessionId: ctx.sessionId, shell: ctx.shell }
}

export async function runJobWithEvents<K extends JobRequest['kind']>(
  hub: EventHub,
  request: Extract<JobRequest, { kind: K }>
): Promise<{ jobId: string; value: JobResults[K] }> {
  const jobId = randomUUID()
  const kind = request.kind
  hub.emit({ type: 'job', jobId, kind, phase: 'started', done: 0, total: 1, message: null })
  try {
    const value = await runJob(request, (p: JobProgress) =>
      hub.emit({ type: 'job', jobId, kind, phase: 'running', done: p.done, total: p.total, message: p.message })
    )
    hub.emit({ type: 'job', jobId, kind, phase: 'done', done: 1, total: 1, message: null })
    return { jobId, value }
  } catch (error) {
    hub.emit({ type: 'job', jobId, kind, phase: 'failed', done: 0, total: 1, message: String((error as Error).message) })
    throw error
  }
}
