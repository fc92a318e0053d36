import { useCounts } from '../api/queries'
import { CountsBar } from '../components/CountsBar'
import { EmptyState, ErrorState, Loading } from '../components/States'

export function QueueScreen() {
  const counts = useCounts()
  if (counts.isPending) return <Loading />
  if (counts.isError) return <ErrorState error={counts.error} />
  const c = counts.data
  return (
    <div className="screen">
      <header className="screen-header">
        <h1>Review queue</h1>
        <CountsBar counts={c} />
      </header>
      {c.deferred === 0 ? (
        <EmptyState title="Nothing waits for review">
          {c.tasks === 0 ? (
            <p>This database holds no tasks yet. Deferred tasks appear here once council traces are imported and decided.</p>
          ) : (
            <p>
              This database holds {c.tasks} tasks, {c.moves} moves from {c.seats} seats, and {c.fits === 0 ? 'no fit yet' : `${c.fits} fits`}.
              A task enters this queue when the certificate defers it.
            </p>
          )}
        </EmptyState>
      ) : (
        <p>{c.deferred} tasks are deferred to review.</p>
      )}
    </div>
  )
}
