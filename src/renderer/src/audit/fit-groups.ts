import type { FitSummary } from '@shared/api'

/**
 * Background refits come one after another (one per few labels), most of them deciding exactly as
 * the one before: the list groups consecutive fits that decided alike — same method,
 * hyperparameters and bound, and the same tasks decided and acted on — into one row.
 */
export interface FitGroup {
  /** The newest fit of the run: the one a rollback would bring back. */
  newest: FitSummary
  fits: FitSummary[]
  current: boolean
  /** The run decides as the current fit does: rolling back to it would change nothing a reviewer sees. */
  sameAsCurrent: boolean
}

/** What a fit's decisions come to, as far as the list shows them; null before they are saved. */
export function outcomeKey(f: FitSummary): string | null {
  if (f.decidedAt === null) return null
  const m = f.metrics ?? {}
  return JSON.stringify([f.method, f.hyperparameters, f.bound, f.decisionCount, typeof m.acted === 'number' ? m.acted : null])
}

/** `fits` newest first, as fits.list gives them. */
export function groupFits(fits: readonly FitSummary[]): FitGroup[] {
  const currentKey = outcomeKey(fits.find((f) => f.current) ?? fits[0] ?? ({ decidedAt: null } as FitSummary))
  const groups: FitGroup[] = []
  for (const f of fits) {
    const key = outcomeKey(f)
    const last = groups.at(-1)
    if (last !== undefined && key !== null && outcomeKey(last.newest) === key) {
      last.fits.push(f)
      last.current ||= f.current
      continue
    }
    groups.push({ newest: f, fits: [f], current: f.current, sameAsCurrent: key !== null && key === currentKey })
  }
  return groups
}
