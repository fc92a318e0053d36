/**
 * Worker-thread entry for long jobs (docs/architecture.md, "Workers"). It opens its own database
 * connection, so the window's thread never waits on the job. Loaded by tsx under Node and
 * vitest, and as the `jobs-worker` entry of the Electron build.
 */
import { parentPort, workerData, type MessagePort } from 'node:worker_threads'
import { openStore, type Store } from '../store'
import { computeAudit } from './audit/compute'
import { fitAndDecide } from './fit/run-fit'
import { runImport } from './import'
import { serveImportWriter, type WriterThreadData } from './import/writer-thread'
import { serveDecisionsWriter, type DecisionsThreadData } from './fit/decisions-thread'
import { GiveWay } from './jobs/give-way'
import { lowerThisThread } from './jobs/priority'
import type { JobRequest, WorkerMessage } from './jobs/protocol'

/**
 * Runs the job on its own connection and posts its result before closing it: the close may still
 * owe a checkpoint (a decide's finish leaves its write-ahead log to it), which the caller need not
 * wait for.
 */
async function withStore<T>(job: JobRequest, readonly: boolean, body: (store: Store) => Promise<T>): Promise<void> {
  const store = await openStore(job.dbLocation, { nativeBinding: job.nativeBinding ?? undefined, readonly })
  let value: T
  try {
    value = await body(store)
  } catch (e) {
    await store.close().catch(() => undefined)
    throw e
  }
  post({ type: 'result', value })
  await store.close()
}

const progress = (p: { phase?: string; done: number; total: number; message: string | null }) =>
  post({ type: 'progress', done: p.done, total: p.total, message: p.phase === undefined ? p.message : p.message === null ? p.phase : `${p.phase}: ${p.message}` })

/** Runs the job; it posts its own result (withStore). */
async function run(job: JobRequest): Promise<void> {
  switch (job.kind) {
    case 'integrity-check':
      post({ type: 'progress', done: 0, total: 1, message: 'opening the database' })
      return withStore(job, true, async (store) => {
        post({ type: 'progress', done: 0, total: 1, message: 'checking pages and foreign keys' })
        const report = await store.integrityCheck()
        post({ type: 'progress', done: 1, total: 1, message: null })
        return report
      })
    case 'import':
      return withStore(job, false, (store) => runImport(store, job.request, job.actor, progress))
    case 'fit':
      return withStore(job, false, async (store) => {
        const redecide = job.redecide === null ? null : { fit: await store.getFit(job.redecide.fitId), budget: job.redecide.budget, bound: job.redecide.bound }
        const writer = { dbLocation: job.dbLocation, nativeBinding: job.nativeBinding ?? null }
        const giveWay = new GiveWay(job.activity)
        return fitAndDecide(
          store, { settings: job.settings, redecide, writer, giveWay: () => giveWay.pause(), ...(job.redecide?.copyRows === false ? { copyRows: false } : {}) }, job.actor, progress
        )
      })
    case 'audit':
      // Read-write only because tasks imported before tallies existed are backfilled, as a fit does.
      return withStore(job, false, (store) => computeAudit(store, job.settings, job.actor, progress))
  }
}

function post(message: WorkerMessage): void {
  parentPort?.postMessage(message)
}

// The same entry also serves as an import's or a decide's writer thread (import/writer-thread.ts,
// fit/decisions-thread.ts): the Electron build has one worker file, so every thread kind starts here.
const kind = (workerData as { kind: string }).kind
if (kind === 'import-writer') {
  serveImportWriter(parentPort as MessagePort, workerData as WriterThreadData)
} else if (kind === 'decisions-writer') {
  serveDecisionsWriter(parentPort as MessagePort, workerData as DecisionsThreadData)
} else {
  lowerThisThread()
  run(workerData as JobRequest).catch(
    (error: unknown) => {
      const e = error as { message?: string; code?: unknown; details?: unknown }
      post({ type: 'error', message: String(e?.message ?? error), code: typeof e?.code === 'string' ? e.code : null, details: e?.details ?? null })
    }
  )
}
