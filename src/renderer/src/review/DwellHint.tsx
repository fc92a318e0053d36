import { hrefFor } from '../router'

/** Why a label key or click did nothing: the task had not been on screen for the reading time yet. */
export function DwellHint({ ms }: { ms: number | null }) {
  if (ms === null) return null
  const seconds = (ms / 1000).toLocaleString('en', { maximumFractionDigits: 2 })
  return (
    <p className="notice small" role="status" data-testid="dwell-hint" data-dwell-ms={ms}>
      Too quick — read the task first ({seconds} s minimum, <a href={hrefFor('settings')}>Settings</a>). Nothing was labeled; press again.
    </p>
  )
}
