/**
 * The current fit's own act-or-defer figures (what it acted on, at which rounds), for Audit to show
 * beside the split evaluation: the split scores fits of half the random labels on the other half,
 * so its acted share can differ widely from the live fit's, and each must say which it is.
 */
import type { LiveFitFigures } from '../../../shared/api'
import type { FitRecord, Store } from '../../store'

export async function liveFitFigures(store: Store, fit: FitRecord | null): Promise<LiveFitFigures | null> {
  if (fit === null) return null
  const r = await store.fitStopRounds(fit.id)
  if (r === null) return null
  const cert = fit.certificate ?? {}
  const T = typeof cert.T === 'number' ? cert.T : null
  const resolved = (cert.resolved ?? null) as { beta?: unknown } | null
  const beta = typeof resolved?.beta === 'number' ? resolved.beta : null
  const deferred = r.decided - r.acted
  // Without a stored T (no fit of this kind lacks one) the deferred tasks cannot be counted as T rounds: the acted ones alone.
  const rnd = r.decided === 0 ? 0 : T === null ? (r.acted === 0 ? 0 : r.actedRounds / r.acted) : (r.actedRounds + deferred * T) / r.decided
  return { fitId: fit.id, decided: r.decided, acted: r.acted, act: r.decided === 0 ? 0 : r.acted / r.decided, rnd, beta }
}
