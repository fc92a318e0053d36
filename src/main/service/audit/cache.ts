/**
 * One cached audit summary, keyed by what it is computed from: the current fit, the label log
 * (its size and newest row — an undo or a replacement changes the newest row even when the live
 * count stays the same), the task count and the engine settings the audit reads. Opening the
 * Audit screen twice costs a few small reads; concurrent opens share one computation.
 */
import type { AuditSummary, EngineSettings } from '../../../shared/api'
import type { Store } from '../../store'

export async function auditKey(store: Store, s: EngineSettings): Promise<string> {
  const [fit, counts, recent] = await Promise.all([store.currentFit(), store.counts(), store.recentLabels(1)])
  const settings = { method: s.method, budget: s.budget, bound: s.bound, delta: s.delta, epsAct: s.epsAct, state: s.state, spotRate: s.spotRate, labelPolicy: s.labelPolicy, seed: s.seed }
  return JSON.stringify({ fit: fit?.id ?? null, labels: counts.labels, last: recent[0]?.id ?? null, tasks: counts.tasks, settings })
}

export class AuditCache {
  private entry: { key: string; value: Promise<AuditSummary> } | null = null

  get(key: string, compute: () => Promise<AuditSummary>): Promise<AuditSummary> {
    if (this.entry === null || this.entry.key !== key) {
      const value = compute()
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
}
