import { useState } from 'react'
import type { ExportKind, TaskFilterArgs } from '@shared/api'
import { useApi } from '../api/context'

/** Exports exactly the rows of the queue's current filter, as a download. */
export function ExportButtons({ filter }: { filter: TaskFilterArgs }) {
  const api = useApi()
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)

  const run = async (what: ExportKind) => {
    setBusy(true)
    setError(null)
    try {
      const res = await api['export.run']({ what, filter, format: 'jsonl', path: null })
      download(res.fileName, res.content ?? '')
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e))
    } finally {
      setBusy(false)
    }
  }
  return (
    <span className="export">
      <button type="button" className="secondary" data-testid="export-decisions" disabled={busy} onClick={() => run('decisions')}>
        Export decisions
      </button>
      <button type="button" className="secondary" data-testid="export-labels" disabled={busy} onClick={() => run('labels')}>
        Export labels
      </button>
      <button type="button" className="secondary" data-testid="export-flags" disabled={busy} onClick={() => run('flags')}>
        Export flags
      </button>
      {error && (
        <span role="alert" className="error-text">
          {error}
        </span>
      )}
    </span>
  )
}

function download(fileName: string, content: string): void {
  const url = URL.createObjectURL(new Blob([content], { type: 'application/x-ndjson' }))
  const a = document.createElement('a')
  a.href = url
  a.download = fileName
  document.body.appendChild(a)
  a.click()
  a.remove()
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000)
}
