import type { Counts } from '@shared/api'

const ITEMS: { key: keyof Counts; label: string; testId: string }[] = [
  { key: 'tasks', label: 'tasks', testId: 'count-tasks' },
  { key: 'deferred', label: 'deferred', testId: 'count-deferred' },
  { key: 'acted', label: 'acted', testId: 'count-acted' },
  { key: 'spotCheck', label: 'spot-check', testId: 'count-spot-check' },
  { key: 'labeledTasks', label: 'labeled', testId: 'count-labeled' }
]

/** The queue header's counts, straight from the store. */
export function CountsBar({ counts }: { counts: Counts }) {
  return (
    <dl className="counts" aria-label="Task counts">
      {ITEMS.map((i) => (
        <div className="count" key={i.key}>
          <dt>{i.label}</dt>
          <dd data-testid={i.testId}>{counts[i.key]}</dd>
        </div>
      ))}
    </dl>
  )
}
