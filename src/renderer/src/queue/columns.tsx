import { probabilityPercent } from '@shared/refit-change'
import { createColumnHelper, tableFeatures } from '@tanstack/react-table'
import type { QueueRow } from '@shared/api'
import { leading } from '../api/queries'

export const features = tableFeatures({})
const helper = createColumnHelper<typeof features, QueueRow>()

export const columns = helper.columns([
  helper.accessor('taskId', {
    header: 'Task',
    cell: (c) => (
      <span className="task-cell">
        <span className="mono truncate">{c.getValue()}</span>
        <FlagMark flags={c.row.original.flags} />
      </span>
    )
  }),
  helper.accessor('group', { header: 'Group', cell: (c) => c.getValue() ?? '—' }),
  helper.accessor('question', { header: 'Question', cell: (c) => <span className="truncate">{c.getValue() ?? '—'}</span> }),
  helper.display({
    id: 'answer',
    header: 'Leading answer',
    cell: (c) => {
      const { answer, p } = leading(c.row.original)
      return (
        <span className="truncate">
          {answer ?? '—'}
          {p !== null && <span className="muted" data-testid="leading-p"> {probabilityPercent(p)}</span>}
        </span>
      )
    }
  }),
  helper.accessor('gap', { header: 'Gap', cell: (c) => <GapBar gap={c.getValue()} /> }),
  helper.accessor('moves', { header: 'Moves', cell: (c) => c.getValue() }),
  helper.accessor('disagreement', { header: 'Disagreement', cell: (c) => (c.getValue() === null ? '—' : c.getValue()!.toFixed(2)) }),
  helper.accessor('createdAt', { header: 'Age', cell: (c) => age(c.getValue()) }),
  helper.display({ id: 'label', header: 'Label', cell: (c) => <LabelState row={c.row.original} /> })
])

/** Grid template shared by the header and the virtual rows (a div grid virtualizes cleanly). */
export const GRID_COLUMNS = '140px 110px minmax(160px, 1fr) 150px 120px 72px 110px 70px 110px'
/** The grid's narrowest width (its columns' minimums): below it, the header and rows scroll sideways together. */
export const GRID_MIN_WIDTH = 140 + 110 + 160 + 150 + 120 + 72 + 110 + 70 + 110

function GapBar({ gap }: { gap: number | null }) {
  if (gap === null) return <span className="muted">—</span>
  const w = Math.max(2, Math.min(1, Math.abs(gap)) * 60)
  return (
    <span className="gap" title={`certification gap ${gap.toFixed(4)}`} data-testid="queue-gap" data-gap={String(gap)}>
      <span className={`gap-bar ${gap > 0 ? 'gap-defer' : 'gap-act'}`} style={{ width: `${w}px` }} />
      {/* Three decimals: neighbouring gaps in a sorted queue differ in the third (two read as ties). */}
      <span className="gap-num">{gap.toFixed(3)}</span>
    </span>
  )
}

/** A flagged task ("can't decide", with a reason) stays in the queue, marked: how many flags it has. */
function FlagMark({ flags }: { flags: number }) {
  if (flags === 0) return null
  return (
    <span className="flag-mark" data-testid="queue-flag" data-flags={flags} title={`flagged ${flags === 1 ? 'once' : `${flags} times`}: a reviewer could not decide it (open it to read why)`}>
      ⚑{flags > 1 ? ` ${flags}` : ''}
    </span>
  )
}

function LabelState({ row }: { row: QueueRow }) {
  if (row.label) return <span className={`tag tag-${row.label.source}`}>{row.label.source}</span>
  // Labeled, but no label to show: its reviewers disagree (Adjudicate), or it is sealed until you label it.
  if (row.state === 'human') return <span className="tag" data-testid="label-pending" title="awaiting adjudication, or sealed until you label it">pending</span>
  if (row.reservedBy) return <span className="tag" data-testid="reserved-by" data-reviewer={row.reservedBy.reviewer}>{row.reservedBy.reviewer}</span>
  if (row.spotCheck) return <span className="tag tag-spot">spot-check</span>
  return <span className="muted">open</span>
}

export function age(iso: string, now = Date.now()): string {
  const s = Math.max(0, (now - Date.parse(iso)) / 1000)
  if (s < 60) return `${Math.floor(s)} s`
  if (s < 3600) return `${Math.floor(s / 60)} min`
  if (s < 86400) return `${Math.floor(s / 3600)} h`
  return `${Math.floor(s / 86400)} d`
}
