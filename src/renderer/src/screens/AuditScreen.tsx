import { useCounts } from '../api/queries'
import { EmptyState, ErrorState, Loading } from '../components/States'

export function AuditScreen() {
  const counts = useCounts()
  if (counts.isPending) return <Loading />
  if (counts.isError) return <ErrorState error={counts.error} />
  const { labels, fits } = counts.data
  return (
    <div className="screen">
      <header className="screen-header">
        <h1>Audit</h1>
      </header>
      <EmptyState title={fits === 0 ? 'No fit to audit yet' : `${fits} fits recorded`}>
        <p>
          The audit compares the engine's calibration, budget usage and seat drift against human labels. This database holds {labels} live{' '}
          {labels === 1 ? 'label' : 'labels'} and {fits} {fits === 1 ? 'fit' : 'fits'}.
        </p>
      </EmptyState>
    </div>
  )
}
