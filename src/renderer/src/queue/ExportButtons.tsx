import { useState } from 'react'
import type { ExportKind, TaskFilterArgs } from '@shared/api'
import { useApi } from '../api/context'
import { downloadText } from '../components/download'

type Format = 'jsonl' | 'csv'
const TYPES: Record<Format, string> = { jsonl: 'application/x-ndjson', csv: 'text/csv' }

/** Exports exactly the rows of the queue's current filter, as a download, in JSONL or CSV. */
export function ExportButtons({ filter }: { filter: TaskFilterArgs }) {
  const api = useApi()
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const [format, setFormat] = useState<Format>('jsonl')

  const run = async (what: ExportKind) => {
    setBusy(true)
    setError(null)
    try {
      const res = await api['export.run']({ what, filter, format, path: null })
      downloadText(res.fileName, res.content ?? '', TYPES[format])
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e))
    } finally {
      setBusy(false)
    }
  }
  return (
    <span className="export">
      <label>
        <span className="sr-only">export format</span>
        <select data-testid="export-format" value={format} disabled={busy} onChange={(e) => setFormat(e.target.value as Format)} title="The format of the exports: JSONL, or CSV for a spreadsheet">
          <option value="jsonl">JSONL</option>
          <option value="csv">CSV</option>
        </select>
      </label>
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
