import { DEFAULT_ENGINE_SETTINGS, type BudgetSetting } from '@shared/api'
import { boundLabel, budgetLabel } from '@shared/budget-text'
import { useDefaultsNotice, useDismissDefaultsNotice } from '../api/queries'

/** How a kept setting reads: the budget and bound in words, anything else as its value. */
function keptValue(key: string, value: unknown): string {
  if (key === 'budget') return budgetLabel(value as BudgetSetting)
  if (key === 'bound') return value === 'binomial' || value === 'hoeffding' ? boundLabel(value) : String(value)
  return String(value)
}

/**
 * The old-database rule made visible (docs/engine.md §10): this database was made by an older version,
 * so it kept the defaults it ran under; new databases get the new ones. Shown until dismissed.
 */
export function DefaultsNoticePanel() {
  const notice = useDefaultsNotice()
  const dismiss = useDismissDefaultsNotice()
  if (notice.data === undefined || notice.data === null) return null
  const kept = Object.entries(notice.data.kept)
  const d = DEFAULT_ENGINE_SETTINGS
  return (
    <section className="panel notice" role="status" aria-labelledby="defaults-heading" data-testid="defaults-notice">
      <h2 id="defaults-heading">The engine’s defaults changed</h2>
      <p>
        New databases now use {budgetLabel(d.budget)} (absolute), the {boundLabel(d.bound)} and the {d.method} method. This database was made
        by an older version of Arbiter, so it keeps what it ran under — written to its settings once, in the audit log, on{' '}
        {new Date(notice.data.at).toLocaleString()}:
      </p>
      <ul>
        {kept.map(([k, v]) => (
          <li key={k}>
            {k}: {keptValue(k, v)}
          </li>
        ))}
      </ul>
      <p className="muted small">Change any of them below to move to the new defaults.</p>
      <div className="actions">
        <button type="button" onClick={() => dismiss.mutate()} disabled={dismiss.isPending} data-testid="defaults-notice-dismiss">
          Dismiss
        </button>
      </div>
    </section>
  )
}
