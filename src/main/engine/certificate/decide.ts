import type { BoundTable } from './bounds'
import type { BoundWhy, DeferReason, ScoredTask, TaskDecision } from './types'

/**
 * The stopping rule and per-task report (ENGINE.md §8.8–8.9; AoD §3 "Stopping rule", Alg. 1):
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

/**
 * Decisions for the scored tasks (same order as the table).
 * @param alpha α = β − (δ + ε_act), or null when β is unknown (λ = auto found nothing feasible).
 * @param reason a reason that defers every task, or null to apply the stopping rule.
 */
export function decideTasks<A>(
  table: BoundTable,
  tasks: readonly ScoredTask<A>[],
  alpha: number | null,
  reason: DeferReason | null
): TaskDecision<A>[] {
  const { T, n, L } = table
  if (tasks.length !== n) throw new RangeError('decideTasks: tasks and bound table differ in length')
  if (reason === null && (alpha === null || !(alpha > 0))) {
    throw new RangeError('decideTasks: the stopping rule needs α > 0; pass a reason otherwise')
  }
  const threshold = alpha === null ? Number.NaN : 1 - alpha
  const stops = reason === null ? firstCrossing(table, threshold) : null
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
    const bt = bestRound(table, i)
    let why: BoundWhy | null = null
    let maxL = Number.NaN
    if (bt >= 0) {
      const o = i * T + bt
      maxL = L[o]
      why = { round: bt, k: table.k[o], n: table.neighbours[o], qhat: table.qhat[o], bias: table.bias[o], conc: table.conc[o] }
    }
    const gap = alpha === null || bt < 0 ? null : threshold - maxL
    const tau = stops === null ? -1 : stops[i]
    const act = tau >= 0
    out.push({
      id: task.id,
      decision: act ? 'act' : 'defer',
      stopRound: act ? tau : null,
      answer: act ? task.answers[tau] : task.answers[T - 1],
      bound,
      k: ks,
      n: ns,
      gap,
      why,
      reason: reason ?? (ok ? null : 'no-usable-k')
    })
  }
  return out
}
