import type { Hyper, OneCoinMethod } from './methods'
import { reliabilityOf, type Reliabilities } from './reliability'

/**
 * Prior means μ_i from the fitted reliabilities (docs/engine.md §4, BDA Eq. 3):
 *   shared:               μ_i = b
 *   per-agent, tempered:  μ_i = clip(b + κ·(r_i − r̄), 0.01, 0.99)
 * and the Beta prior α_i = s·μ_i, β_i = s·(1 − μ_i). Arrays are by global seat index; the
 * `unseen` entries are for seats beyond the fitted range (r_i = r̄, so μ = clip(b)).
 */
export interface BetaPriors {
  readonly mu: Float64Array
  readonly alpha: Float64Array
  readonly beta: Float64Array
  readonly unseenMu: number
  readonly unseenAlpha: number
  readonly unseenBeta: number
}

export function priorMean(method: OneCoinMethod, hyper: Hyper, r: number, rBar: number): number {
  const b = hyper.b!
  if (method === 'shared') return b
  const mu = b + hyper.kappa! * (r - rBar)
  return mu < 0.01 ? 0.01 : mu > 0.99 ? 0.99 : mu
}

/** O(#seats). */
export function betaPriors(method: OneCoinMethod, hyper: Hyper, rel: Reliabilities): BetaPriors {
  const n = rel.r.length
  const s = hyper.s!
  const mu = new Float64Array(n)
  const alpha = new Float64Array(n)
  const beta = new Float64Array(n)
  for (let i = 0; i < n; i++) {
    mu[i] = priorMean(method, hyper, reliabilityOf(rel, i), rel.rBar)
    alpha[i] = s * mu[i]
    beta[i] = s * (1 - mu[i])
  }
  const unseenMu = priorMean(method, hyper, rel.rBar, rel.rBar)
  return { mu, alpha, beta, unseenMu, unseenAlpha: s * unseenMu, unseenBeta: s * (1 - unseenMu) }
}

/** The seat weight w_i = ln(μ_i / (1 − μ_i)) (BDA Prop. 1; docs/engine.md §3, §6). */
export function seatWeight(mu: number): number {
  return Math.log(mu / (1 - mu))
}
