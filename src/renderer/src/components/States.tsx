import type { ReactNode } from 'react'
import { isOfflineError } from '../api/connection'
import { useDatabaseReplaced } from '../api/database-replaced'

/** What a screen shows when there is nothing yet: what is missing, and what to do about it. */
export function EmptyState({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="empty-state" role="status">
      <h2>{title}</h2>
      <div className="empty-body">{children}</div>
    </section>
  )
}

export function ErrorState({ error }: { error: unknown }) {
  const replaced = useDatabaseReplaced()
  const message = error instanceof Error ? error.message : String(error)
  // Unreachable server: the banner above retries, and the screen refetches once it answers.
  if (isOfflineError(error)) {
    return (
      <section className="error-state" role="status" data-testid="offline-state">
        <h2>Waiting for the console server</h2>
        <p>It did not answer; this screen reloads by itself once it does (see the banner above).</p>
      </section>
    )
  }
  return (
    <section className="error-state" role="alert">
      <h2>Something went wrong</h2>
      <p>{message}</p>
      {replaced === null ? (
        <p>Reload the window; if it persists, run the database integrity check in Settings.</p>
      ) : (
        <p>
          The database this screen was reading was replaced ({replaced.by} chose “Start empty”; the demo was kept at <code>{replaced.demoMovedTo}</code>): what it
          showed is no longer here. Open the Queue to see the new database.
        </p>
      )}
    </section>
  )
}

export function Loading() {
  return (
    <p className="loading" role="status" aria-live="polite">
      Loading…
    </p>
  )
}
