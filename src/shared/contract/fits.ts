/**
 * Fits: running one (and deciding under it), re-deciding under another budget, the list and one
 * fit's detail, rollback, the background refit's status, and what a fit changed.
 */
import { z } from 'zod'
import { command, defineCalls, id, noArgs, query, returns } from './call'
import type { BudgetWhatIf } from './fits-what-if'
import { BOUND_KINDS, budgetSchema, engineSettingsSchema, type BoundKind, type BudgetSetting } from './settings'

export interface FitSummary {
  id: string
  createdAt: string
  method: string
  /** The concentration bound the fit ran with (docs/engine.md §8.7); fits made before the setting ran Hoeffding's. */
  bound: BoundKind
  hyperparameters: Record<string, number>
  metrics: Record<string, unknown> | null
  parentFitId: string | null
  decidedAt: string | null
  decisionCount: number
  current: boolean
}

export interface FitSeat {
  seat: string
  model: string | null
  reliability: number | null
  mu: number | null
  weight: number | null
  seen: boolean
  adversarial: boolean
  /** `noTimeOrder` (docs/engine.md §9): absent in fits stored before it was reported. */
  drift: { recent: number; rest: number; diff: number; floor: number; flagged: boolean; noTimeOrder?: boolean } | null
}

export interface FitDetail extends FitSummary {
  seats: FitSeat[]
  certificate: Record<string, unknown> | null
  budget: BudgetSetting | null
}

export interface RefitStatus {
  running: boolean
  /** When the debounced background refit will start; null when none is pending. */
  scheduledFor: string | null
  lastError: string | null
  currentFitId: string | null
  /** Labels written since the current fit was made (a refit would change something). */
  stale: boolean
}

/** One fit's decisions when it was made: what a refit summary compares. */
export interface FitShare {
  fitId: string
  createdAt: string
  decided: number
  acted: number
  deferred: number
}

/** What a fit changed against the decided fit before it. */
export interface RefitChange {
  before: FitShare | null
  after: FitShare
  /** Live labels recorded since the previous fit was made; null without one. */
  labelsSince: number | null
}

const fitIdOnly = z.object({ fitId: id }).strict()
const listLimit = z.object({ limit: z.number().int().min(1).max(500).default(50) }).strict()

export const fitCalls = defineCalls({
  'fits.run': command(noArgs, returns<FitSummary>()),
  'fits.redecide': command(z.object({ budget: budgetSchema, bound: z.enum(BOUND_KINDS).optional() }).strict(), returns<FitSummary>()),
  'fits.list': query(listLimit, returns<FitSummary[]>(), ['fits']),
  'fits.get': query(fitIdOnly, returns<FitDetail>(), ['fits']),
  'fits.rollback': command(fitIdOnly, returns<FitSummary>()),
  'fits.status': query(noArgs, returns<RefitStatus>(), ['labels', 'fits']),
  /** What the settings would do under the current fit's stored bounds, before saving them. */
  'fits.whatIf': query(z.object({ settings: engineSettingsSchema }).strict(), returns<BudgetWhatIf>(), ['labels', 'decisions', 'fits']),
  /**
   * What a fit changed against the fit before it. Asked once, for the summary shown as the fit
   * lands or is saved: the console keeps no answer of it to ask again.
   */
  'fits.change': query(fitIdOnly, returns<RefitChange>(), [])
})
