import { useCallback } from 'react'
import type { ApiEvent } from '@shared/events'
import { useApiEvents } from '../api/context'
import { setDatabaseReplaced, useDatabaseReplaced } from '../api/database-replaced'

/** Says plainly that the database under this console was replaced, by whom, and where the old one went. */
export function DatabaseReplacedBanner() {
  const replaced = useDatabaseReplaced()
  useApiEvents(
    useCallback((e: ApiEvent) => {
      if (e.type === 'database-replaced') setDatabaseReplaced({ by: e.by, demoMovedTo: e.demoMovedTo })
    }, [])
  )
  if (replaced === null) return null
  return (
    <div className="offline-banner" role="alert" data-testid="database-replaced">
      <strong>This console's database was replaced.</strong>{' '}
      <span>
        {replaced.by} chose “Start empty”: the demo database, with every label given in it, was moved to <code>{replaced.demoMovedTo}</code> (kept, not
        deleted), and this console now shows the new, empty database.
      </span>
      <button type="button" className="small secondary" onClick={() => setDatabaseReplaced(null)}>
        Dismiss
      </button>
    </div>
  )
}
