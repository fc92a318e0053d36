/**
 * One cached audit summary, keyed by what it is computed from: the current fit, the label log
 * (its size and newest row — an undo or a replacement changes the newest row even when the live
 * count stays the same), the task count and the engine settings the audit reads. Opening the
 * Audit screen twice costs a few small reads; concurrent opens share one computation.
 *
 * Each computation is a worker thread holding the whole label log, so at most AUDIT_WORKERS run at
 * once (server-limits.ts): an open for a state that moved on while they run waits its turn, and
 * at most one computation waits — the newest asked for. An older waiting one is replaced rather
 * than queued behind (its callers get the newer summary): it has not started, and a computation
 * reads the database when it starts, so what it returns is never older than any of its callers' keys.
 * That holds only while a summary is the same for every login (the key names no viewer): one that
 * differs by viewer must never replace another viewer's waiting computation.
 */
import type { AuditSummary, EngineSettings } from '../../../shared/api'
import { AUDIT_WORKERS } from '../../../shared/server-limits'
import type { Store } from '../../store'

export async function auditKey(store: Store, s: EngineSettings): Promise<string> {
  const [fit, counts, recent] = await Promise.all([store.currentFit(), store.counts(), store.recentLabels(1)])
  const settings = { method: s.method, budget: s.budget, bound: s.bound, delta: s.delta, epsAct: s.epsAct, state: s.state, spotRate: s.spotRate, labelPolicy: s.labelPolicy, seed: s.seed }
  return JSON.stringify({ fit: fit?.id ?? null, labels: counts.labels, last: recent[0]?.id ?? null, tasks: counts.tasks, settings })
}

type Compute = () => Promise<AuditSummary>

interface Waiting {
  compute: Compute
  value: Promise<AuditSummary>
  resolve(summary: AuditSummary): void
  reject(error: unknown): void
}

export class AuditCache {
  private entry: { key: string; value: Promise<AuditSummary> } | null = null
  private running = 0
  private waiting: Waiting | null = null

  constructor(private readonly workers: number = AUDIT_WORKERS) {}

  get(key: string, compute: Compute): Promise<AuditSummary> {
    if (this.entry === null || this.entry.key !== key) {
      const value = this.schedule(compute)
      const entry = { key, value }
      this.entry = entry
      // A failed computation is not remembered: the next open tries again.
      value.catch(() => {
        if (this.entry === entry) this.entry = null
      })
    }
    return this.entry.value
  }

  clear(): void {
    this.entry = null
  }

  /** Computations started and not yet finished (at most `workers`). */
  get active(): number {
    return this.running
  }

  /** Starts `compute` if a worker is free; else it becomes the one waiting, replacing an older one. */
  private schedule(compute: Compute): Promise<AuditSummary> {
    if (this.running < this.workers) return this.start(compute)
    if (this.waiting !== null) {
      this.waiting.compute = compute
      return this.waiting.value
    }
    let resolve: (s: AuditSummary) => void = () => {}
    let reject: (e: unknown) => void = () => {}
    const value = new Promise<AuditSummary>((res, rej) => {
      resolve = res
      reject = rej
    })
    this.waiting = { compute, value, resolve, reject }
    return value
  }

  private start(compute: Compute): Promise<AuditSummary> {
    this.running++
    const done = (): void => {
      this.running--
      const next = this.waiting
      if (next === null) return
      this.waiting = null
      this.start(next.compute).then(next.resolve, next.reject)
    }
    let value: Promise<AuditSummary>
    try {
      value = compute()
    } catch (error) {
      value = Promise.reject(error)
    }
    void value.then(done, done)
    return value
  }
}
