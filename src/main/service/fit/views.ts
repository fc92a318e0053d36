/** A stored fit as the console sees it: its summary, its seats, and its detail. */
import type { BudgetSetting, FitDetail, FitSeat, FitSummary } from '../../../shared/api'
import { budgetSchema } from '../../../shared/api'
import type { FitRecord, JsonObject, ListedFit } from '../../store'
import { metricsWithCounts } from './record'

export function fitSummary(f: Omit<FitRecord, 'certificate'> | ListedFit, current: boolean): FitSummary {
  return {
    id: f.id,
    createdAt: f.createdAt,
    method: f.method,
    hyperparameters: f.hyperparameters as Record<string, number>,
    metrics: metricsWithCounts(f),
    parentFitId: f.parentFitId,
    bound: f.bound,
    decidedAt: f.decidedAt,
    decisionCount: f.decisionCount,
    current
  }
}

function fitSeats(f: FitRecord): FitSeat[] {
  const seats = (f.reliabilities.seats ?? []) as JsonObject[]
  return seats.map((s) => ({
    seat: String(s.seat),
    model: typeof s.model === 'string' ? s.model : null,
    reliability: typeof s.reliability === 'number' ? s.reliability : null,
    mu: typeof s.mu === 'number' ? s.mu : null,
    weight: typeof s.weight === 'number' ? s.weight : null,
    seen: s.seen === true,
    adversarial: s.adversarial === true,
    drift: (s.drift ?? null) as FitSeat['drift']
  }))
}

/** The fit as the console sees it; the label sets (large, and for rebuilding only) stay in the store. */
export function fitDetail(f: FitRecord, current: boolean): FitDetail {
  const { labels: _labels, ...certificate } = f.certificate ?? {}
  const budget = budgetSchema.safeParse(certificate.budget)
  return { ...fitSummary(f, current), seats: fitSeats(f), certificate: f.certificate === null ? null : certificate, budget: budget.success ? (budget.data as BudgetSetting) : null }
}
