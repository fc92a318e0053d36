import type { Counts } from '@shared/api'

const ITEMS: { key: keyof Counts; label: string; testId: string; note?: string; title?: string }[] = [
  { key: 'tasks', label: 'tasks', testId: 'count-tasks' },
  { key: 'deferred', label: 'deferred', testId: 'count-deferred' },
  { key: 'acted', label: 'acted', testId: 'count-acted' },
  {
    key: 'spotCheck',
    label: 'spot-check',
    testId: 'count-spot-check',
    // The spot-check is a uniform sample keyed on the task id (docs/engine.md §10): it overlaps both counts before it, never adds to them.
    note: 'within acted + deferred',
    title: 'A uniform sample of the tasks without a human label, drawn whatever their decision: each is also counted as acted or deferred.'
  },
  { key: 'labeledTasks', label: 'labeled', testId: 'count-labeled' }
]

/** The queue header's counts, straight from the store. */
export function CountsBar({ counts }: { counts: Counts }) {
  return (
    <dl className="counts" aria-label="Task counts">
      {ITEMS.map((i) => (
        <div className="count" key={i.key} title={i.title}>
          <dt>{i.label}</dt>
          <dd data-testid={i.testId}>{counts[i.key]}</dd>
          {i.note && (
            <dd className="count-note" data-testid={`${i.testId}-note`}>
              {i.note}
            </dd>
          )}
        </div>
      ))}
    </dl>
  )
}
