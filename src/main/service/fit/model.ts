/**
 * The current fit's deployed aggregator, rebuilt where it is needed (the review screen's
 * posteriors, per-round views and leave-one-seat-out influence). Fits run in a worker thread, so
 * the model is rebuilt here from what the fit stored: its method, its CV-selected hyperparameters
 * and the exact labels it was fitted on — no CV runs again, and the result is the same model
 * (fitting with fixed hyperparameters is deterministic). Cached per fit.
 */
import { fitAggregator, SeatIndex, type Aggregator, type Hyper, type Method, type TaskTallies } from '../../engine'
import type { FitRecord, JsonObject, StoredTallies, Store } from '../../store'
import { toTaskTallies } from './corpus'
import { readLabelPairs } from './record'

export interface FitModel {
  fit: FitRecord
  seats: SeatIndex
  aggregator: Aggregator
  /** Rounds the certificate reads (T of C), at least 1. */
  T: number
  threshold: number | null
  seed: number
}

async function allTallies(store: Store): Promise<StoredTallies[]> {
  const out: StoredTallies[] = []
  let after: string | null = null
  for (;;) {
    const page: StoredTallies[] = await store.tallyPage(after, 20_000)
    out.push(...page)
    if (page.length < 20_000) return out
    after = page[page.length - 1].taskId
  }
}

/**
 * Labeled tasks' tallies kept from one fit's model to the next. Every label starts a background
 * refit, and each refit that lands made the server's thread read the whole calibration set's
 * tallies again, a reviewer's key waiting behind it. A
 * published task's tallies never change — they are written once (`saveTallies` keeps a task's
 * own), and a published task is never deleted nor replaced (only an abandoned import's leftovers
 * are) — so within one database they are read once. Another database starts afresh
 * (`ModelCache.forget`).
 */
export type KnownTallies = Map<string, StoredTallies>

/** The tallies of `ids` that are published and have them, in that order: those in `known`, the rest read (and kept). */
export async function labeledTallies(store: Store, ids: string[], known: KnownTallies): Promise<StoredTallies[]> {
  for (const t of await store.loadTallies(ids.filter((id) => !known.has(id)))) known.set(t.taskId, t)
  // Tasks no longer labeled leave once they outnumber the labeled ones.
  if (known.size > 2 * ids.length) {
    const keep = new Set(ids)
    for (const id of known.keys()) if (!keep.has(id)) known.delete(id)
  }
  return ids.flatMap((id) => known.get(id) ?? [])
}

export async function rebuildModel(store: Store, fit: FitRecord, known: KnownTallies = new Map()): Promise<FitModel> {
  const cert = fit.certificate ?? {}
  const sets = (cert.labels ?? {}) as JsonObject
  const pairs = [...readLabelPairs(sets.calibration), ...readLabelPairs(sets.extra)]
  const labelOf = new Map(pairs)
  const seats = new SeatIndex()
  const stored = await labeledTallies(store, pairs.map(([id]) => id), known)
  const labeled: TaskTallies[] = stored.map((s) => toTaskTallies(s, seats, labelOf.get(s.taskId) ?? null))
  const method = fit.method as Method
  const unsupervised = method === 'ds-em' || method === 'ds-em-full'
  const pool = unsupervised ? (await allTallies(store)).map((s) => toTaskTallies(s, seats, null)) : labeled
  const seed = typeof cert.seed === 'number' ? cert.seed : 0
  const aggregator = fitAggregator(method, labeled, fit.hyperparameters as Hyper, seed, { pool, labels: labeled[0]?.candidates })
  const resolved = (cert.resolved ?? null) as JsonObject | null
  const threshold = typeof resolved?.threshold === 'number' ? resolved.threshold : null
  return { fit, seats, aggregator, T: typeof cert.T === 'number' && cert.T >= 1 ? cert.T : 1, threshold, seed }
}

/** One model at a time: the console looks at the current fit. The labeled tasks' tallies outlive it. */
export class ModelCache {
  private entry: { id: string; model: Promise<FitModel> } | null = null
  private tallies: KnownTallies = new Map()

  get(store: Store, fit: FitRecord): Promise<FitModel> {
    if (this.entry === null || this.entry.id !== fit.id) {
      const model = rebuildModel(store, fit, this.tallies)
      this.entry = { id: fit.id, model }
      model.catch(() => {
        if (this.entry?.model === model) this.entry = null
      })
    }
    return this.entry.model
  }

  /** Another fit may be current: the model is rebuilt on its next use, from the tallies kept. */
  clear(): void {
    this.entry = null
  }

  /** Another database: nothing of the last one is kept. */
  forget(): void {
    this.entry = null
    this.tallies = new Map()
  }
}
