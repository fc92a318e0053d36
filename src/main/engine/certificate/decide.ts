import type { BoundTable } from './bounds'
import type { BoundWhy, DeferReason, ScoredTask, TaskDecision } from './types'

/**
 * The stopping rule and per-task report (docs/engine.md §8.8–8.9; AoD §3 "Stopping rule", Alg. 1):
 *
 *     τ = min { t : L_t ≥ 1 − α }   → act with Ŷ_τ;   no such t → defer (answer Ŷ_{T−1})
 *     gap = (1 − α) − max_t L_t     (> 0 ⇔ deferred)
 *
 * plus the decomposition (n, q̂, b, conc) at the best round argmax_t L_t (first on ties) and that
 * round's best k, so the console can say why. When everything is deferred for a reason
 * (α ≤ 0, empty 𝒦_used, insufficient evidence) the bound, k, gap and why are still reported where
 * they can be computed.
 */

/** τ per task for threshold θ = 1 − α: the first round with L_t ≥ θ, or −1. */
export function firstCrossing(table: BoundTable, threshold: number): Int32Array {
  const { T, n, L } = table
  const stop = new Int32Array(n).fill(-1)
  for (let i = 0; i < n; i++) {
    if (table.usable[i] === 0) continue
    for (let t = 0; t < T; t++) {
      if (L[i * T + t] >= threshold) {
        stop[i] = t
        break
      }
    }
  }
  return stop
}

/** argmax_t L_t (first on ties) of task i, or −1 when its 𝒦_used is empty. */
export function bestRound(table: BoundTable, i: number): number {
  if (table.usable[i] === 0) return -1
  const { T, L } = table
  let best = 0
  for (let t = 1; t < T; t++) if (L[i * T + t] > L[i * T + best]) best = t
  return best
}

/** The stopping rule's outcome in columns, one entry per task of the table. */
export interface DecidedColumns {
  /** τ, or −1 when deferred. */
  readonly stop: Int32Array
  /** argmax_t L_t (the why's round), or −1 when the task's 𝒦_used is empty. */
  readonly best: Int32Array
  /** (1 − α) − max_t L_t; NaN when α is null or 𝒦_used is empty. */
  readonly gap: Float64Array
}

/**
 * The stopping rule over a bound table, in columns (a decide's pages read these without an object
 * per task; `decideTasks` reports them per task).
 * @param alpha α = β − (δ + ε_act), or null when β is unknown (λ = auto found nothing feasible).
 * @param reason a reason that defers every task, or null to apply the stopping rule.
 */
export function decideColumns(table: BoundTable, alpha: number | null, reason: DeferReason | null): DecidedColumns {
  const { T, n, L } = table
  if (reason === null && (alpha === null || !(alpha > 0))) {
    throw new RangeError('decideTasks: the stopping rule needs α > 0; pass a reason otherwise')
  }
  const threshold = alpha === null ? Number.NaN : 1 - alpha
  const stop = reason === null ? firstCrossing(table, threshold) : new Int32Array(n).fill(-1)
  const best = new Int32Array(n)
  const gap = new Float64Array(n)
  for (let i = 0; i < n; i++) {
    const bt = bestRound(table, i)
    best[i] = bt
    gap[i] = alpha === null || bt < 0 ? Number.NaN : threshold - L[i * T + bt]
  }
  return { stop, best, gap }
}

/** A task's reason: the batch's, else `no-usable-k` when its 𝒦_used is empty, else none. */
export function taskReason(table: BoundTable, i: number, reason: DeferReason | null): DeferReason | null {
  return reason ?? (table.usable[i] === 1 ? null : 'no-usable-k')
}

/**
 * Decisions for the scored tasks (same order as the table); `decideColumns` says how.
 */
export function decideTasks<A>(
  table: BoundTable,
  tasks: readonly ScoredTask<A>[],
  alpha: number | null,
  reason: DeferReason | null
): TaskDecision<A>[] {
  const { T, n, L } = table
  if (tasks.length !== n) throw new RangeError('decideTasks: tasks and bound table differ in length')
  const { stop, best, gap } = decideColumns(table, alpha, reason)
  const out: TaskDecision<A>[] = []
  for (let i = 0; i < n; i++) {
    const task = tasks[i]
    if (task.answers.length !== T) {
      throw new RangeError(`certificate: scored task ${task.id} has ${task.answers.length} answers, expected T = ${T}`)
    }
    const ok = table.usable[i] === 1
    const bound: (number | null)[] = []
    const ks: (number | null)[] = []
    const ns: (number | null)[] = []
    for (let t = 0; t < T; t++) {
      bound.push(ok ? L[i * T + t] : null)
      ks.push(ok ? table.k[i * T + t] : null)
      ns.push(ok ? table.neighbours[i * T + t] : null)
    }
    const bt = best[i]
    let why: BoundWhy | null = null
    if (bt >= 0) {
      const o = i * T + bt
      why = { round: bt, k: table.k[o], n: table.neighbours[o], qhat: table.qhat[o], bias: table.bias[o], conc: table.conc[o] }
    }
    const tau = stop[i]
    const act = tau >= 0
    out.push({
      id: task.id,
      decision: act ? 'act' : 'defer',
      stopRound: act ? tau : null,
      answer: act ? task.answers[tau] : task.answers[T - 1],
      bound,
      k: ks,
      n: ns,
      gap: Number.isNaN(gap[i]) ? null : gap[i],
      why,
      reason: taskReason(table, i, reason)
    })
  }
  return out
}
