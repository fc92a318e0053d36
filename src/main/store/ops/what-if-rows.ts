/**
 * A fit's what-if figures as rows (../what-if-figures.ts): read, written, and copied from the fit
 * whose rows a new fit copies. Apart from what-if.ts so that the fits' own writes (a rollback's
 * copy, ops/fits.ts) can give a fit its figures without a circle through the what-if's reads.
 */
import { StoreError, type WhatIfFigures } from '../contract'
import { rowOf, rowsOf, run, type Plan } from '../plan'
import { checkId, checkNullableFinite } from '../validate'
import { redecidedFigures } from '../what-if-figures'

/** A fit's stored figures, or null for none. */
function* storedFigures(fitId: string): Plan<WhatIfFigures | null> {
  const marked = yield* rowOf<{ entries: number | null }>('SELECT what_if_entries AS entries FROM fits WHERE id = ?', fitId)
  if (marked === undefined || marked.entries === null) return null
  const chunks = yield* rowsOf<{ top: number; bytes: Uint8Array }>('SELECT top_bound AS top, entries AS bytes FROM fit_what_if WHERE fit_id = ? ORDER BY top_bound DESC', fitId)
  return { entries: Number(marked.entries), chunks: chunks.map((c) => ({ top: Number(c.top), bytes: c.bytes })) }
}

/**
 * Gives fit `fitId`, whose rows are a copy of `parentId`'s, its figures from the parent's: as they
 * are (a rollback's copy: the same rows), or with each row's gap θ − peak (a re-decide's copy at
 * `threshold`, ../what-if-figures.ts). False when the parent has none (the fit reads its rows).
 */
export function* copyWhatIfFigures(fitId: string, parentId: string, threshold: number | null): Plan<boolean> {
  const parent = yield* storedFigures(checkId(parentId, 'parentFitId'))
  if (parent === null) return false
  const at = checkNullableFinite(threshold, 'threshold')
  const fit = yield* rowOf<{ decided: string | null }>('SELECT decided_at AS decided FROM fits WHERE id = ?', checkId(fitId, 'fitId'))
  if (fit === undefined) throw new StoreError('not_found', `no fit ${fitId}`, { fitId })
  if (fit.decided === null) throw new StoreError('conflict', `fit ${fitId} has no decisions, so it has no what-if figures`, { fitId })
  yield* writeFigures(fitId, at === null ? parent : redecidedFigures(parent, at))
  return true
}

/** Replaces fit `fitId`'s figures with `figures` (checked by the caller). */
export function* writeFigures(fitId: string, figures: WhatIfFigures): Plan<void> {
  yield* run('DELETE FROM fit_what_if WHERE fit_id = ?', fitId)
  for (const c of figures.chunks) yield* run('INSERT INTO fit_what_if (fit_id, top_bound, entries) VALUES (?, ?, ?)', fitId, c.top, c.bytes)
  yield* run('UPDATE fits SET what_if_entries = ? WHERE id = ?', figures.entries, fitId)
}
