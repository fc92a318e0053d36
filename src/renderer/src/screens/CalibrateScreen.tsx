import { useCounts } from '../api/queries'
import { EmptyState, ErrorState, Loading } from '../components/States'

export function CalibrateScreen() {
  const counts = useCounts()
  if (counts.isPending) return <Loading />
  if (counts.isError) return <ErrorState error={counts.error} />
  const unlabeled = counts.data.tasks - counts.data.labeledTasks
  return (
    <div className="screen">
      <header className="screen-header">
        <h1>Calibrate</h1>
      </header>
      <EmptyState title="Blind labeling">
        <p>
          Calibration draws unlabeled tasks uniformly at random and hides the engine's verdict until your label is committed, so the
          labels can certify the engine. This database has {unlabeled} unlabeled {unlabeled === 1 ? 'task' : 'tasks'}.
        </p>
      </EmptyState>
    </div>
  )
}
