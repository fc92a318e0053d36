import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { Worker, type ResourceLimits } from 'node:worker_threads'
import type { JobRequest, JobResults, WorkerMessage } from './protocol'

export interface JobProgress {
  done: number
  total: number
  message: string | null
}

/**
 * Where the worker entry lives: next to the bundle in a build (`out/main/jobs-worker.js`; this
 * code may itself sit in a shared chunk, `out/main/chunks/`, once the worker entry imports it
 * too), else the TypeScript source, loaded through tsx (tests, CLI, `serve`).
 */
export function workerEntry(): { file: string; execArgv: string[] } {
  for (const built of [join(__dirname, 'jobs-worker.js'), join(__dirname, '..', 'jobs-worker.js')]) {
    if (existsSync(built)) return { file: built, execArgv: [] }
  }
  // `--import tsx` is ignored by worker threads on Node 20; tsx's require hook is honoured.
  const tsxHook = createRequire(join(__dirname, 'runner.ts')).resolve('tsx/cjs')
  return { file: join(__dirname, '..', 'job-worker.ts'), execArgv: ['--require', tsxHook] }
}

/**
 * A fit's decide makes a few dozen short-lived objects per task (its per-round states, bounds and
 * verdict) — tens of millions at a million tasks. With V8's default 16 MiB semi-spaces they
 * outlive several scavenges and are copied each time; 64 MiB ones (a 192 MiB young generation)
 * let most of them die where they were made, never copied, which shortens a million-task decide.
 * The other jobs keep V8's default.
 */
const JOB_LIMITS: Record<JobRequest['kind'], ResourceLimits | undefined> = {
  fit: { maxYoungGenerationSizeMb: 192 },
  import: undefined,
  audit: undefined,
  'integrity-check': undefined
}

/**
 * The job threads not yet exited, by database. A job's result comes before its thread's close step
 * (SQLite's checkpoint, PostgreSQL's vacuum), so a console that closes must wait for the threads of
 * its database too: a copy or a backup made right after would otherwise miss what is still in the WAL.
 */
const running = new Map<string, Set<Promise<void>>>()

/** Resolves once every job thread started on `dbLocation` has exited. */
export async function jobThreadsExited(dbLocation: string): Promise<void> {
  for (let left = running.get(dbLocation); left !== undefined && left.size > 0; left = running.get(dbLocation)) await Promise.all([...left])
}

/** Runs one job in a fresh worker thread, reporting progress; rejects with the worker's error. */
export function runJob<K extends JobRequest['kind']>(
  request: Extract<JobRequest, { kind: K }>,
  onProgress: (p: JobProgress) => void,
  /** When the worker has exited: after its result, a job's close may still do upkeep (SQLite's checkpoint, PostgreSQL's vacuum). */
  onExit?: () => void
): Promise<JobResults[K]> {
  const { file, execArgv } = workerEntry()
  return new Promise((resolve, reject) => {
    const worker = new Worker(file, { workerData: request, execArgv, resourceLimits: JOB_LIMITS[request.kind] })
    const threads = running.get(request.dbLocation) ?? new Set<Promise<void>>()
    running.set(request.dbLocation, threads)
    const exited = new Promise<void>((done) => worker.once('exit', () => done()))
    threads.add(exited)
    void exited.then(() => {
      threads.delete(exited)
      if (threads.size === 0 && running.get(request.dbLocation) === threads) running.delete(request.dbLocation)
    })
    let settled = false
    worker.on('message', (m: WorkerMessage) => {
      if (m.type === 'progress') onProgress({ done: m.done, total: m.total, message: m.message })
      else if (m.type === 'result') {
        settled = true
        resolve(m.value as JobResults[K])
      } else {
        settled = true
        reject(Object.assign(new Error(m.message), { code: m.code ?? 'internal', details: m.details }))
      }
    })
    worker.on('error', (e) => {
      if (!settled) reject(e)
      settled = true
    })
    worker.on('exit', (code) => {
      onExit?.()
      if (!settled) reject(new Error(`job ${request.kind} exited with code ${code}`))
    })
  })
}
