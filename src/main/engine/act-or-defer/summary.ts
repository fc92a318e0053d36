import { metricsFromStops } from '../certificate'
import type { Decisions, PreparedBatch } from './act-or-defer'
import type { CertifySummary } from './types'

/**
 * The `certify` summary (docs/formats.md; docs/engine.md §8 "Metrics", AoD §6): Act, Acc|Act, WA = share of
 * ALL tasks acted on wrongly, WA/β, Rnd = mean (stopRound + 1) with deferred tasks counting T,
 * and the budget in force. Acc|Act, WA and WA/β need the truth of every task (gold ≥ 0 in its
 * tallies); otherwise they are null rather than computed on a subset that was not drawn at random.
 */
export function summarize(decisions: Decisions, batch: PreparedBatch): CertifySummary {
  const T = batch.table.T
  const n = batch.tallies.length
  const stops = Int32Array.from(decisions.tasks, (d) => (d.stopRound === null ? -1 : d.stopRound))
  const labeled = batch.tallies.every((t) => t.gold >= 0)
  // Without gold, z = 1 everywhere: only Act and Rnd, which do not read z, are used.
  const z = batch.tallies.map((t, i) => {
    const zi = new Uint8Array(T)
    for (let r = 0; r < T; r++) zi[r] = !labeled || batch.answerIndex[i * T + r] === t.gold ? 1 : 0
    return zi
  })
  const { beta, alpha, lambda, reason } = decisions.budget
  const m = metricsFromStops(stops, z, T, beta)
  return {
    act: m.act,
    accAct: labeled ? m.accAct : null,
    wa: labeled && n > 0 ? m.wa : null,
    waOverBeta: labeled && n > 0 ? m.waOverBeta : null,
    rnd: m.rnd,
    beta,
    alpha,
    lambda,
    reason
  }
}
