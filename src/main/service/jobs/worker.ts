/**
 * Worker-thread entry for long jobs (DESIGN.md, "Workers"). It opens its own database
 * connection, so the window's thread never waits on the job. Loaded by tsx under Node and
 * vitest, and as the `jobs-worker` entry of the Electron build.
 */
import { parentPort, workerData } from 'node:worker_threads'
import { openStore } from '../../store'
import type { JobRequest, WorkerMessage } from './protocol'

async function run(job: JobRequest): Promise<unknown> {
  switch (job.kind) {
    case 'integrity-check': {
      post({ type: 'progress', done: 0, total: 1, message: 'opening the database' })
      const store = await openStore(job.dbPath, { nativeBinding: job.nativeBinding ?? undefined, readonly: true })
      try {
        post({ type: 'progress', done: 0, total: 1, message: 'checking pages and foreign keys' })
        const report = await store.integrityCheck()
        post({ type: 'progress', done: 1, total: 1, message: null })
        return report
      } finally {
        await store.close()
      }
    }
  }
}

function post(message: WorkerMessage): void {
  parentPort?.postMessage(message)
}

run(workerData as JobRequest).then(
  (value) => post({ type: 'result', value }),
  (error: unknown) => {
    const e = error as { message?: string; code?: unknown }
    post({ type: 'error', message: String(e?.message ?? error), code: typeof e?.code === 'string' ? e.code : null })
  }
)
