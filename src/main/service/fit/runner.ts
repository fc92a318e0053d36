/**
 * One fit at a time, and the debounced background refit ("after each new label, a
 * background refit is scheduled and the queue updates when it lands"). Labels arriving while a
 * fit runs schedule one more fit after it, never a second concurrent one — and never more than
 * one: a fit still waiting for its turn will read every label given before it starts, so a
 * `fits.run` while a fit (asked for or the background refit) is queued shares that one instead of
 * queueing another behind it. Re-decides are queued as asked: each names its own budget.
 */
import type { RedecideRequest } from '../jobs/protocol'
import type { Actor, FitRecord } from '../../store'

/**
 * A steady stream of labels never leaves a quiet period: the refit then runs at the latest this
 * many quiet periods after the first label it waits for, so the queue keeps learning under load.
 */
export const MAX_WAIT_PERIODS = 10

/** `actor`: who asked for the fit; null for the background refit (the process's own context). */
export type RunFit = (redecide: RedecideRequest | null, actor: Actor | null) => Promise<FitRecord>

export class FitRunner {
  private chain: Promise<unknown> = Promise.resolve()
  private active = 0
  private timer: NodeJS.Timeout | null = null
  private due: number | null = null
  /** When the first label of the pending refit arrived (null: none pending). */
  private firstAt: number | null = null
  private lastError: string | null = null
  private closed = false
  /** A fit of every label queued behind a running fit, not started yet (null: none is). */
  private queuedFit: Promise<FitRecord> | null = null

  constructor(
    private readonly run: RunFit,
    private readonly landed: (fit: FitRecord) => void
  ) {}

  /**
   * Queues a fit (or a re-decide) after any running one; resolves when it has landed. A fit while
   * another is still waiting its turn is that one (its `actor` is the first asker's).
   */
  now(redecide: RedecideRequest | null = null, actor: Actor | null = null): Promise<FitRecord> {
    if (redecide === null) return this.fullFit(actor)
    return this.enqueue(redecide, actor, () => {})
  }

  /** A fit of every label: the queued one when there is one, else a new one. */
  private fullFit(actor: Actor | null): Promise<FitRecord> {
    if (this.queuedFit !== null) return this.queuedFit
    const job: Promise<FitRecord> = this.enqueue(null, actor, () => {
      if (this.queuedFit === job) this.queuedFit = null
    })
    this.queuedFit = job
    return job
  }

  private enqueue(redecide: RedecideRequest | null, actor: Actor | null, starting: () => void): Promise<FitRecord> {
    this.active++
    const job = this.chain.then(async () => {
      starting()
      try {
        const fit = await this.run(redecide, actor)
        this.lastError = null
        this.landed(fit)
        return fit
      } catch (e) {
        this.lastError = e instanceof Error ? e.message : String(e)
        throw e
      } finally {
        this.active--
      }
    })
    this.chain = job.catch(() => undefined)
    return job
  }

  /**
   * (Re)starts the quiet period; the refit runs `delayMs` after the last call, or
   * MAX_WAIT_PERIODS · `delayMs` after the first one, whichever comes first.
   */
  schedule(delayMs: number): void {
    if (this.closed) return
    if (this.timer !== null) clearTimeout(this.timer)
    const now = Date.now()
    this.firstAt ??= now
    this.due = Math.min(now + delayMs, this.firstAt + MAX_WAIT_PERIODS * delayMs)
    this.timer = setTimeout(() => {
      this.timer = null
      this.due = null
      this.firstAt = null
      // Without this, every label given during a long fit queued a refit of its own (30 labels
      // during one fit: 30 refits in a row, each writing a decisions table).
      if (this.queuedFit !== null) return
      this.fullFit(null).catch((e: unknown) => console.error('[arbiter] background refit failed:', e))
    }, Math.max(0, this.due - now))
    this.timer.unref()
  }

  status(): { running: boolean; scheduledFor: string | null; lastError: string | null } {
    return { running: this.active > 0, scheduledFor: this.due === null ? null : new Date(this.due).toISOString(), lastError: this.lastError }
  }

  /** Waits until no fit is running (a pending one stays pending). */
  async idle(): Promise<void> {
    await this.chain
  }

  /** Cancels a pending refit and waits for a running one. */
  async close(): Promise<void> {
    this.closed = true
    if (this.timer !== null) clearTimeout(this.timer)
    this.timer = null
    this.due = null
    this.firstAt = null
    await this.chain
  }
}
