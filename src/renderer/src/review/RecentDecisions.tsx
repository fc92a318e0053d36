import { useRecentLabels } from '../api/loop-queries'
import { hrefFor } from '../router'

/** The reviewer's last ten decisions, each one click from being reopened and changed. */
export function RecentDecisions({ currentTaskId }: { currentTaskId: string | null }) {
  const recent = useRecentLabels(10)
  const rows = (recent.data ?? []).filter((l) => l.label !== null)
  if (rows.length === 0) return null
  return (
    <section className="panel recent" aria-labelledby="recent-heading">
      <h2 id="recent-heading">Last decisions</h2>
      <ol>
        {rows.map((l) => (
          <li key={l.id} className={`${l.live ? '' : 'superseded'}${l.taskId === currentTaskId ? ' current' : ''}`}>
            <a href={hrefFor('review', l.taskId)} title={l.question ?? undefined}>
              <span className="mono">{l.taskId}</span> → <strong>{l.label}</strong>
            </a>
            <span className="muted">
              {' '}
              {l.source}
              {!l.live && ' · undone'}
            </span>
          </li>
        ))}
      </ol>
    </section>
  )
}
