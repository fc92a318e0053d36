/**
 * What the console says around a refit: before saving, what a new absolute β
 * would do under the current fit's stored bounds; after a refit, what it changed against the fit
 * before it. Both read the store (one pass over the packed bounds, stored counts); nothing here
 * recomputes a certificate.
 */
import { engineSettingsSchema, type BudgetWhatIf, type EngineSettings, type FitShare, type RefitChange } from '../../../shared/api'
import { actionAlpha } from '../../engine/certificate/budget'
import type { FitRecord, JsonObject, Store, WhatIfFigures } from '../../store'

/**
 * A stored gap is (1 − α) − max_t L_t, computed in floating point: the narrowing by gap keeps this
 * much room, and the exact comparison against the bounds themselves decides.
 */
const GAP_MARGIN = 1e-9

/** The settings the stored bounds depend on, as Settings names them (ε_act and β only move the threshold). */
const BOUND_INPUTS: [keyof EngineSettings, string][] = [
  ['method', 'method'],
  ['state', 'state'],
  ['labelPolicy', 'label policy'],
  ['delta', 'δ'],
  ['bound', 'bound'],
  ['seed', 'seed']
]

/** The settings a fit ran with (stored in its certificate), as far as they parse. */
function fitSettings(fit: FitRecord): Partial<EngineSettings> {
  const parsed = engineSettingsSchema.partial().safeParse((fit.certificate ?? {}).settings ?? {})
  return parsed.success ? parsed.data : {}
}

/** What in `draft` the fit's stored bounds cannot answer. */
export function refitNeededFor(draft: EngineSettings, fit: FitRecord): string[] {
  const ran = fitSettings(fit)
  const out: string[] = []
  // A λ budget is worked out at the fit (β = λ·ê_T, λ = auto's search): only the fit's own is known.
  const sameBudget = JSON.stringify(ran.budget) === JSON.stringify(draft.budget)
  if (draft.budget.kind === 'relative' && !sameBudget) out.push('λ')
  if (draft.budget.kind === 'auto' && !sameBudget) out.push('λ = auto')
  for (const [key, name] of BOUND_INPUTS) if (JSON.stringify(ran[key]) !== JSON.stringify(draft[key])) out.push(name)
  return out
}

export async function budgetWhatIf(store: Store, draft: EngineSettings): Promise<BudgetWhatIf> {
  const fit = await store.currentFit()
  if (fit === null) return { fitId: null, needsRefit: [], unavailable: 'No fit yet: saving runs the first one.', current: null, proposed: null }
  const resolved = ((fit.certificate ?? {}).resolved ?? {}) as JsonObject
  if (resolved.reason === 'no-calibration') {
    return { fitId: fit.id, needsRefit: [], unavailable: 'The current fit has no certificate (fewer than 2 blind labels): every task waits in the queue whatever β is.', current: null, proposed: null }
  }
  const needsRefit = refitNeededFor(draft, fit)
  const counts = await store.counts()
  const current = { undecided: counts.acted + counts.deferred, acted: counts.acted, queue: counts.deferred }
  // The fit's own λ budget and nothing the bounds depend on changed: the answer is the fit as it stands (proposed null).
  if (needsRefit.length > 0 || draft.budget.kind !== 'absolute') return { fitId: fit.id, needsRefit, unavailable: null, current, proposed: null }

  const beta = draft.budget.beta
  const alpha = actionAlpha(beta, fitSettings(fit).delta ?? draft.delta, draft.epsAct)
  const threshold = 1 - alpha
  const fitThreshold = typeof resolved.threshold === 'number' ? resolved.threshold : null
  // "Now" read as the proposal is, at the fit's own threshold (the tasks it acted on and still unlabeled), so the two columns compare like with like.
  const now = fitThreshold === null ? null : await store.budgetWhatIf({ threshold: fitThreshold, gapAtMost: GAP_MARGIN })
  const currentNow = now === null ? current : { ...current, expectedWrong: now.expectedWrong, boundedTerms: now.boundedTerms }
  if (!(alpha > 0)) {
    // docs/engine.md §8.8: α ≤ 0 defers everything; nothing to read.
    return { fitId: fit.id, needsRefit, unavailable: null, current: currentNow, proposed: { ...current, acted: 0, queue: current.undecided, beta, alpha, threshold, expectedWrong: 0, boundedTerms: 0 } }
  }
  const r = await store.budgetWhatIf({ threshold, gapAtMost: fitThreshold === null ? null : fitThreshold - threshold + GAP_MARGIN })
  return {
    fitId: fit.id,
    needsRefit,
    unavailable: null,
    current: { ...currentNow, undecided: r.undecided, acted: current.acted, queue: r.undecided - current.acted },
    proposed: { undecided: r.undecided, acted: r.acted, queue: r.undecided - r.acted, beta, alpha, threshold, expectedWrong: r.expectedWrong, boundedTerms: r.boundedTerms }
  }
}

/** Where a fit's what-if figures come from: its decide's pages, its parent's (a re-decide's copy at θ), or its rows. */
export type WhatIfSource = { figures: WhatIfFigures } | { parentId: string; threshold: number } | null

/**
 * Gives a fit that just became current its what-if figures (docs/engine.md §8, Budget), each
 * source in a short write of its own (from the rows: one read, then the write), so a label never
 * waits long. A failure only leaves the fit's what-if reading its rows, as a fit decided before
 * the figures does: logged, never the fit's.
 */
export async function prepareWhatIf(store: Store, fitId: string, source: WhatIfSource): Promise<void> {
  try {
    if (source !== null && 'figures' in source) {
      await store.saveWhatIfFigures(fitId, source.figures)
      return
    }
    if (source !== null && (await store.copyWhatIfFigures(fitId, source.parentId, source.threshold)).value) return
    const figures = await store.buildWhatIfFigures(fitId)
    if (figures !== null) await store.saveWhatIfFigures(fitId, figures)
  } catch (e) {
    console.error(`[arbiter] fit ${fitId}: its what-if figures were not saved (the what-if reads its rows):`, e)
  }
}

function shareOf(f: Pick<FitRecord, 'id' | 'createdAt' | 'decisionCount' | 'deferredCount'>): FitShare | null {
  if (f.deferredCount === null) return null
  return { fitId: f.id, createdAt: f.createdAt, decided: f.decisionCount, acted: f.decisionCount - f.deferredCount, deferred: f.deferredCount }
}

/** How far back a refit summary looks for the fit before it. */
const PREVIOUS_WITHIN = 200

export async function refitChange(store: Store, fitId: string): Promise<RefitChange> {
  const fit = await store.getFit(fitId)
  const after = shareOf(fit) ?? { fitId: fit.id, createdAt: fit.createdAt, decided: fit.decisionCount, acted: 0, deferred: fit.decisionCount }
  const fits = await store.listFits(PREVIOUS_WITHIN)
  const at = fits.findIndex((f) => f.id === fitId)
  const previous = at < 0 ? undefined : fits.slice(at + 1).find((f) => f.decidedAt !== null)
  if (previous === undefined) return { before: null, after, labelsSince: null }
  return { before: shareOf(previous), after, labelsSince: await store.countLabelsSince(previous.createdAt, fit.createdAt) }
}
