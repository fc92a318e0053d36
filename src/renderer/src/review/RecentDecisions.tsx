import { useRecentLabels } from '../api/loop-queries'
import { shortLabel } from '../components/LongText'
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
            <a href={hrefFor('review', l.taskId)} title={l.question === null ? undefined : shortLabel(l.question, 400)}>
              <span className="mono">{l.taskId}</span> → <strong>{shortLabel(l.label ?? "")}</strong>
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
