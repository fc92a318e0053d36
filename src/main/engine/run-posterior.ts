import type { Trace } from '@shared/trace'
import { requireOneCandidateSet } from './candidate-set'
import { fitAggregator } from './fit'
import type { Hyper, Method } from './methods'
import { SeatIndex } from './seat-index'
import { buildTallies } from './tallies'
import { NO_ANSWER, scoredAnswer } from './tie-break'

export interface TaskPosterior {
  task: string
  posterior: Record<string, number>
  /** null: the method gives no answer (best-seat on a task its seat did not answer). */
  answer: string | null
  weights: Record<string, number>
}

/**
 * The stateless `posterior` command (docs/formats.md): fit `method` on the calibration tasks that have
 * gold (hyperparameters CV-selected when `hyper` is null, docs/engine.md §7), then score every task of
 * `traces` in input order on its whole trace, answer by the seeded tie rule (§6) — null where the
 * method gives none (best-seat on a task its seat did not answer) — weights per §6.
 * ds-em / ds-em-full run unsupervised on the traces' round-0 votes and ignore the calibration
 * (ds-em on per-task candidate sets when the traces do not share one).
 * @throws MethodRefused — confusion: a task (calibration first, then traces) whose candidate set
 * differs from the first task's; ds-em-full: the same over the traces; tuned methods with hyper
 * null, and best-seat, with no labeled calibration task.
 * @throws RangeError for a malformed `hyper`.
 */
export function runPosterior(opts: { method: Method; traces: Trace[]; calibration: Trace[]; hyper: Hyper | null; seed: number }): TaskPosterior[] {
  const { method, traces, calibration, hyper, seed } = opts
  if (method === 'confusion') requireOneCandidateSet(method, [...calibration, ...traces])
  if (method === 'ds-em-full') requireOneCandidateSet(method, traces)
  const seats = new SeatIndex()
  const cal = calibration.map((t) => buildTallies(t, seats)).filter((t) => t.gold >= 0)
  const scored = traces.map((t) => buildTallies(t, seats))
  const first = calibration[0] ?? traces[0]
  const agg = fitAggregator(method, cal, hyper, seed, { pool: scored, labels: first?.candidates })
  const p = new Float64Array(scored.reduce((m, t) => Math.max(m, t.K), 0))
  return scored.map((t) => {
    agg.posteriorAt(t, undefined, -1, p)
    const posterior: Record<string, number> = {}
    for (let g = 0; g < t.K; g++) posterior[t.candidates[g]] = p[g]
    const a = scoredAnswer(agg, t, p, seed)
    return { task: t.task, posterior, answer: a === NO_ANSWER ? null : t.candidates[a], weights: agg.weights(t) }
  })
}
