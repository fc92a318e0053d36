/**
 * What a suite needs from the machine beyond the repository: a dataset of the data
 * folder, Chromium, PostgreSQL. When something is missing the suite is skipped with the reason in
 * its title, `… — skipped: no dataset at <path> (set ARBITER_DATA_DIR)`, so vitest counts its tests
 * as skipped and `npm test` lists the reason; under CI a missing prerequisite is instead one failing
 * test naming it, so CI never skips a suite silently. A skipped suite's body is still collected
 * (that is how its tests are counted), so it must not read what is missing before its tests run.
 */
import { describe, it } from 'vitest'
import { datasetMissing } from '../../scripts/data-dir'

/** Why something a suite needs is missing, or null when it is there. */
export type Missing = string | null

/** CI as the usual runners set it (`CI=true`); `false`, `0` or empty mean a developer's machine. */
export const underCi = (env: NodeJS.ProcessEnv = process.env): boolean => !['', '0', 'false', undefined].includes(env.CI)

/** The datasets of the data folder a suite reads (shipped ones are always there). */
export function dataset(...names: string[]): Missing {
  for (const name of names) {
    const missing = datasetMissing(name)
    if (missing !== null) return missing
  }
  return null
}

export type Gate = { run: true } | { run: false; skipTitle: string } | { run: false; failure: string }

/** What becomes of a suite or test titled `title` that needs `needs` (pure: the unit tests check it). */
export function gate(needs: Missing | readonly Missing[], title: string, ci: boolean): Gate {
  const missing = (Array.isArray(needs) ? needs : [needs]).find((m): m is string => m !== null)
  if (missing === undefined) return { run: true }
  if (ci) return { run: false, failure: `CI=true: ${missing}` }
  return { run: false, skipTitle: `${title} — skipped: ${missing}` }
}

/** `describe`, skipped with its reason when a prerequisite is missing (failing under CI). */
export function describeWith(needs: Missing | readonly Missing[], title: string, body: () => void): void {
  const g = gate(needs, title, underCi())
  if (g.run) describe(title, body)
  else if ('skipTitle' in g) describe.skip(g.skipTitle, body)
  else describe(title, () => it('has what it needs', () => { throw new Error(g.failure) }))
}

/** `it`, skipped with its reason when a prerequisite is missing (failing under CI). */
export function itWith(needs: Missing | readonly Missing[], title: string, fn: () => unknown, timeout?: number): void {
  const g = gate(needs, title, underCi())
  if (g.run) it(title, fn, timeout)
  else if ('skipTitle' in g) it.skip(g.skipTitle, fn, timeout)
  else it(title, () => { throw new Error(g.failure) })
}
