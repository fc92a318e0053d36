/**
 * A second thread that serves requests strictly in order, each answered with a value or an error:
 * the import's writer (import/writer-thread.ts) and a decide's writer (fit/decisions-thread.ts).
 * Both sides live here — `RequestThread`, the client, and `serveRequests`, the thread's loop — so
 * every kind of thread shares one protocol and one worker entry (job-worker.ts).
 */
import { Worker, type MessagePort } from 'node:worker_threads'
import { workerEntry } from './runner'

export type ThreadReply = { ok: true; value: unknown } | { ok: false; message: string; code: string | null; details: unknown }

/** The client: one request at a time in flight per call, answers matched in order. */
export class RequestThread<Request> {
  private readonly worker: Worker
  private readonly waiting: { resolve: (v: unknown) => void; reject: (e: unknown) => void }[] = []
  private failed: unknown = null
  private closed: Promise<void> | null = null
  private exited = false

  constructor(workerData: { kind: string }) {
    const { file, execArgv } = workerEntry()
    this.worker = new Worker(file, { workerData, execArgv })
    this.worker.on('message', (r: ThreadReply) => {
      const w = this.waiting.shift()
      if (w === undefined) return
      if (r.ok) w.resolve(r.value)
      else w.reject(Object.assign(new Error(r.message), { code: r.code ?? 'internal', details: r.details }))
    })
    this.worker.on('error', (e) => {
      this.failed = e
      for (const w of this.waiting.splice(0)) w.reject(e)
    })
    this.worker.once('exit', () => (this.exited = true))
  }

  /** `transfer`: buffers of `req` moved to the thread rather than copied (unusable here afterwards). */
  send(req: Request, transfer: ArrayBuffer[] = []): Promise<unknown> {
    if (this.failed !== null) return Promise.reject(this.failed)
    return new Promise((resolve, reject) => {
      this.waiting.push({ resolve, reject })
      this.worker.postMessage(req, transfer)
    })
  }

  get broken(): boolean {
    return this.failed !== null
  }

  /** Idempotent: the thread finishes its requests, runs its close step and exits (killed after 10 s). */
  close(): Promise<void> {
    this.closed ??= new Promise<void>((resolve) => {
      if (this.exited) return resolve()
      if (this.failed === null) this.worker.postMessage({ type: 'close' })
      const timer = setTimeout(() => void this.worker.terminate().then(() => resolve()), 10_000)
      this.worker.once('exit', () => {
        clearTimeout(timer)
        resolve()
      })
    })
    return this.closed
  }
}

/** The thread's side: `handle` each request in arrival order; `onClose` before the port closes. */
export function serveRequests<Request>(port: MessagePort, handle: (req: Request) => Promise<unknown>, onClose: () => Promise<void>): void {
  let chain: Promise<void> = Promise.resolve()
  port.on('message', (req: Request | { type: 'close' }) => {
    chain = chain.then(async () => {
      if ((req as { type?: unknown }).type === 'close') {
        await onClose()
        port.close()
        return
      }
      try {
        port.postMessage({ ok: true, value: await handle(req as Request) } satisfies ThreadReply)
      } catch (e) {
        const err = e as { message?: string; code?: unknown; details?: unknown }
        port.postMessage({ ok: false, message: String(err.message ?? e), code: typeof err.code === 'string' ? err.code : null, details: err.details ?? null } satisfies ThreadReply)
      }
    })
  })
}
