import { useCallback } from 'react'
import type { QueueRow } from '@shared/api'
import { useCounts, useQueuePage, type QueueQuery } from '../api/queries'
import { CountsBar } from '../components/CountsBar'
import { EmptyState, ErrorState, Loading } from '../components/States'
import { useHotkeys } from '../hooks/useHotkeys'
import { QueueControls } from '../queue/QueueControls'
import { QueueTable } from '../queue/QueueTable'
import { useQueueState } from '../queue/queue-state'
import { markKey } from '../perf-marks'
import { hrefFor } from '../router'

export function QueueScreen() {
  const counts = useCounts()
  const { query, setQuery, cursor, setCursor } = useQueueState()
  const first = useQueuePage(query, 0)
  const total = first.data?.total ?? 0
  const held = first.data?.heldByOthers ?? 0

  const open = useCallback((row: QueueRow, index: number) => {
    markKey('open')
    setCursor(index)
    window.location.hash = hrefFor('review', row.taskId)
  }, [setCursor])

  const change = useCallback(
    (q: QueueQuery) => {
      setQuery(q)
      setCursor(0)
    },
    [setQuery, setCursor]
  )

  useHotkeys({
    j: () => setCursor(Math.min(total - 1, cursor + 1)),
    ArrowDown: () => setCursor(Math.min(total - 1, cursor + 1)),
    k: () => setCursor(Math.max(0, cursor - 1)),
    ArrowUp: () => setCursor(Math.max(0, cursor - 1)),
    // The cursor's row is always on screen (the table scrolls to it), so its id is in the DOM.
    Enter: () => {
      const el = document.querySelector<HTMLElement>(`[data-testid="queue-row"][aria-rowindex="${cursor + 1}"]`)
      if (!el?.dataset.taskId) return
      markKey('open')
      window.location.hash = hrefFor('review', el.dataset.taskId)
    }
  }, total > 0)

  if (counts.isPending) return <Loading />
  if (counts.isError) return <ErrorState error={counts.error} />
  const c = counts.data
  return (
    <div className="screen queue-screen">
      <header className="screen-header">
        <h1>Review queue</h1>
        <CountsBar counts={c} />
      </header>
      <QueueControls query={query} onChange={change} />
      {first.isError ? (
        <ErrorState error={first.error} />
      ) : first.isPending ? (
        <Loading />
      ) : total === 0 ? (
        <EmptyState title={query.filter.decision === 'defer' && !query.filter.search && !query.filter.group ? 'Nothing waits for review' : 'No task matches this filter'}>
          {held > 0 ? (
            <p data-testid="queue-total" data-total={0} data-held={held}>
              {held} matching {held === 1 ? 'task is' : 'tasks are'} held by {held === 1 ? 'another reviewer' : 'other reviewers'} right now; a task
              comes back here if its reviewer releases it without a label.
            </p>
          ) : c.tasks === 0 ? (
            <p>
              This database holds no tasks yet. Import council traces on the <a href={hrefFor('import')}>Import</a> screen (or with{' '}
              <code>arbiter import</code>), then fit and decide.
            </p>
          ) : c.fits === 0 ? (
            <p>
              This database holds {c.tasks} tasks and no fit yet. Label some tasks blind in <a href={hrefFor('calibrate')}>Calibrate</a>, then fit
              from <a href={hrefFor('settings')}>Settings</a> (or <code>arbiter fit</code> and <code>arbiter decide</code>).
            </p>
          ) : (
            <p>Change the filter or the search to see other tasks.</p>
          )}
        </EmptyState>
      ) : (
        <>
          <p className="hint muted">
            <span data-testid="queue-total" data-total={total} data-held={held}>
              {total} {total === 1 ? 'task' : 'tasks'}
              {/* Left out of this list while held, yet in the counts above: the two then add up. */}
              {held > 0 && <> · {held} held by {held === 1 ? 'another reviewer' : 'other reviewers'} (not listed until released)</>}
            </span>{' '}
            · click a row or <kbd>j</kbd>/<kbd>k</kbd> then <kbd>Enter</kbd> to open it
          </p>
          <QueueTable query={query} total={total} cursor={cursor} onOpen={open} />
        </>
      )}
    </div>
  )
}
