import { useEffect, useState } from 'react'
import type { TaskFilterArgs } from '@shared/api'
import { useFacets, type QueueQuery, type QueueSort } from '../api/queries'
import { ExportButtons } from './ExportButtons'

const DECISIONS: { value: TaskFilterArgs['decision']; label: string }[] = [
  { value: 'defer', label: 'deferred' },
  { value: 'act', label: 'acted' },
  { value: 'human', label: 'labeled' },
  { value: null, label: 'all tasks' }
]

const FLAGS: { value: 'any' | 'flagged' | 'unflagged'; label: string; flagged: boolean | null }[] = [
  { value: 'any', label: 'flagged or not', flagged: null },
  { value: 'flagged', label: 'flagged only', flagged: true },
  { value: 'unflagged', label: 'not flagged', flagged: false }
]

const SORTS: { value: QueueSort; label: string }[] = [
  { value: 'gap', label: 'closest to acting' },
  { value: 'age', label: 'age' },
  { value: 'disagreement', label: 'disagreement' },
  { value: 'group', label: 'group' }
]

/** Search, filters and sort: exactly the filter the export buttons export. */
export function QueueControls({ query, onChange }: { query: QueueQuery; onChange: (q: QueueQuery) => void }) {
  const facets = useFacets()
  const [search, setSearch] = useState(query.filter.search ?? '')
  const setFilter = (patch: Partial<TaskFilterArgs>) => onChange({ ...query, filter: { ...query.filter, ...patch } })

  // Debounced: a query per keystroke would page the whole queue for nothing.
  useEffect(() => {
    const t = window.setTimeout(() => {
      const value = search.trim() === '' ? null : search.trim()
      if (value !== query.filter.search) onChange({ ...query, filter: { ...query.filter, search: value } })
    }, 250)
    return () => window.clearTimeout(t)
  }, [search, query, onChange])

  return (
    <div className="queue-controls">
      <input
        type="search"
        data-testid="queue-search"
        placeholder="Search questions…"
        aria-label="Search questions"
        value={search}
        onChange={(e) => setSearch(e.target.value)}
      />
      <label>
        <span className="sr-only">Group</span>
        <select data-testid="queue-filter-group" value={query.filter.group ?? ''} onChange={(e) => setFilter({ group: e.target.value === '' ? null : e.target.value })}>
          <option value="">all groups</option>
          {(facets.data?.groups ?? []).map((g) => (
            <option key={g.group ?? ''} value={g.group ?? ''} disabled={g.group === null}>
              {g.group ?? '(no group)'} ({g.count})
            </option>
          ))}
        </select>
      </label>
      <label>
        <span className="sr-only">Decision</span>
        <select
          data-testid="queue-filter-decision"
          value={query.filter.decision ?? ''}
          onChange={(e) => setFilter({ decision: e.target.value === '' ? null : (e.target.value as TaskFilterArgs['decision']) })}
        >
          {DECISIONS.map((d) => (
            <option key={d.label} value={d.value ?? ''}>
              {d.label}
            </option>
          ))}
        </select>
      </label>
      <label>
        <span className="sr-only">Flags</span>
        <select
          data-testid="queue-filter-flagged"
          value={FLAGS.find((f) => f.flagged === (query.filter.flagged ?? null))?.value ?? 'any'}
          onChange={(e) => setFilter({ flagged: FLAGS.find((f) => f.value === e.target.value)?.flagged ?? null })}
        >
          {FLAGS.map((f) => (
            <option key={f.value} value={f.value}>
              {f.label}
            </option>
          ))}
        </select>
      </label>
      <label>
        <span className="sr-only">Sort</span>
        <select value={query.sort} onChange={(e) => onChange({ ...query, sort: e.target.value as QueueSort })} aria-label="Sort by">
          {SORTS.map((s) => (
            <option key={s.value} value={s.value}>
              sort: {s.label}
            </option>
          ))}
        </select>
      </label>
      <ExportButtons filter={query.filter} />
    </div>
  )
}
