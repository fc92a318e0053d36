/**
 * A re-decide under another budget without refitting or deciding again: when nothing
 * the parent fit read has changed since, its decisions are copied with their verdict recomputed in
 * the store (sqlite/fits.ts), because under the same labels, settings and bound only the
 * verdict depends on the budget (docs/engine.md §8.8). Everything else of the new fit is the parent's:
 * method, hyperparameters, seat figures, certificate (with the new budget resolved), metrics.
 * What it needs, or the caller decides every task again (`fitAndDecide`'s full path):
 * - an absolute or relative budget (λ = auto searches the calibration set, which is not loaded);
 * - the parent's bound, and a parent whose certificate applied the stopping rule;
 * - the same inputs: the published imports, the effective labels (by id) and the seats' models
 *   hash to the parent's `metrics.inputs`, and its counts agree;
 * - a parent table that keeps its rows' rounds (`canRedecideRows`: decided since SQLite migration 9
 *   or PostgreSQL migration 7).
 */
import type { EngineSettings } from '../../../shared/api'
import { resolveFixedBudget } from '../../engine'
import { hashHex } from '../../engine/hash'
import type { Actor, FitRecord, JsonObject, JsonValue, Store } from '../../store'
import { jsonSafe } from './record'
import { fitLabels } from './fit-labels'

export type CopyProgress = (p: { phase: string; done: number; total: number; message: string | null }) => void

/**
 * Rows per transaction. SQLite: a label waits behind one chunk, short at this size, not the
 * whole copy. PostgreSQL: a copy into a table no one reads yet blocks no other write (MVCC), so
 * its chunks are larger — fewer statements — and only bound its progress steps.
 */
const COPY_CHUNK = { sqlite: 25_000, postgres: 250_000 } as const

/**
 * What a fit reads besides its settings, as one hash: which imports are published (and their task
 * counts), each task's effective label (its id changes with every new label, undo or replacement),
 * and the seats' models (the seat figures name them). A fit stores it in `metrics.inputs`, taken
 * before it loads the corpus, so a change made while it loads makes the hashes differ.
 */
export async function inputsDigest(store: Store): Promise<Inputs> {
  const [sources, labels, models] = await Promise.all([store.tallySources(), fitLabels(store), store.seatModels()])
  const ids = labels.map((l) => `${l.taskId}\u0000${l.labelId}`).sort()
  const seats = Object.entries(models).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  const digest = hashHex(JSON.stringify({ imports: sources.map((s) => [s.importId, s.tasks]), labels: ids, seats }))
  return { digest, tasks: sources.reduce((n, s) => n + s.tasks, 0), labels: labels.length }
}

export type Inputs = { digest: string; tasks: number; labels: number }

const num = (v: JsonValue | undefined): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null)

/**
 * The new fit, saved, with its rows copied (not yet indexed or finished: the caller does both, as
 * for a decided fit); null when the copy cannot stand for a decide (the reasons above).
 */
export async function redecideByCopy(
  store: Store, parent: FitRecord, s: EngineSettings, now: Inputs, actor: Actor, progress: CopyProgress,
  pause: () => Promise<void> = async () => {}
): Promise<string | null> {
  const t0 = Date.now()
  const budget = s.budget
  if (budget.kind === 'auto' || s.bound !== parent.bound || parent.certificate === null || parent.metrics === null) return null
  const cert = parent.certificate
  const resolvedBefore = cert.resolved as JsonObject | null | undefined
  const T = num(cert.T)
  const eT = num(cert.finalRoundError)
  if (resolvedBefore?.reason !== null || T === null || T < 1 || eT === null || !Array.isArray(cert.kUsed)) return null
  const m = parent.metrics
  const decided = num(m.decided)
  if (typeof m.inputs !== 'string' || decided === null || decided !== parent.decisionCount) return null
  if (now.digest !== m.inputs || now.tasks !== m.tasks || now.labels !== m.humanLabeled) return null
  if (!(await store.canRedecideRows(parent.id))) return null

  progress({ phase: 'fitting', done: 0, total: decided, message: 'the fit and its rows are the parent fit\'s; only the verdicts change' })
  const r = resolveFixedBudget({ finalRoundError: eT, delta: s.delta, epsAct: s.epsAct, kUsedCount: cert.kUsed.length }, budget)
  const threshold = r.alpha === null ? null : 1 - r.alpha
  if (threshold === null) return null
  const certificate = {
    ...cert, budget: jsonSafe(budget), bound: s.bound,
    resolved: jsonSafe({ beta: r.beta, alpha: r.alpha, lambda: r.lambda, reason: r.reason, threshold }), settings: jsonSafe(s)
  } as JsonObject
  const metrics = jsonSafe({
    tasks: m.tasks, decided: m.decided, humanLabeled: m.humanLabeled, calibrationLabels: m.calibrationLabels, otherLabels: m.otherLabels,
    labelPolicy: m.labelPolicy, outOfFold: m.outOfFold ?? null, reason: r.reason, fitMs: Date.now() - t0, inputs: m.inputs
  }) as JsonObject
  const fit = await store.saveFit(
    { method: parent.method, hyperparameters: parent.hyperparameters, reliabilities: parent.reliabilities, certificate, metrics, parentFitId: parent.id, bound: s.bound },
    actor
  )
  const fitId = fit.value.id
  const chunk = COPY_CHUNK[(await store.info()).backend]
  let done = 0
  for (let after: string | null = null; ; ) {
    progress({ phase: 'deciding', done, total: decided, message: null })
    await pause()
    const step: { copied: number; last: string | null } = (await store.redecideRows(fitId, { parentFitId: parent.id, threshold, reason: r.reason, rounds: T, afterTaskId: after, limit: chunk })).value
    done += step.copied
    after = step.last
    if (step.copied < chunk) break
  }
  if (done !== decided) throw new Error(`re-decide: copied ${done} of the parent fit's ${decided} decisions`)
  return fitId
}
