import { useCounts } from '../api/queries'
import { EmptyState, ErrorState, Loading } from '../components/States'

export function ImportScreen() {
  const counts = useCounts()
  if (counts.isPending) return <Loading />
  if (counts.isError) return <ErrorState error={counts.error} />
  return (
    <div className="screen">
      <header className="screen-header">
        <h1>Import</h1>
      </header>
      <EmptyState title="Council traces and labels">
        <p>
          Arbiter reads council traces (<code>arbiter.trace/1</code> JSONL), label-aggregation CSV and label files (
          <code>arbiter.labels/1</code>). A file is validated whole before anything is written. This database holds {counts.data.tasks} tasks
          and {counts.data.moves} moves.
        </p>
      </EmptyState>
    </div>
  )
}
