import { hrefFor } from '../router'
import { EmptyState } from '../components/States'

export function ReviewScreen({ taskId }: { taskId: string | null }) {
  return (
    <div className="screen">
      <header className="screen-header">
        <h1>Review</h1>
      </header>
      <EmptyState title={taskId ? `Task ${taskId}` : 'No task open'}>
        <p>
          Open a deferred task from the <a href={hrefFor('queue')}>queue</a> to read its transcript, the seat weights, the posterior and
          the certification gap, then resolve it.
        </p>
      </EmptyState>
    </div>
  )
}
