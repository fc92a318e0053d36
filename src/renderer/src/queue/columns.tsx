import { createColumnHelper, tableFeatures } from '@tanstack/react-table'
import type { QueueRow } from '@shared/api'
import { decisionOf } from '../api/queries'

export const features = tableFeatures({})
const helper = createColumnHelper<typeof features, QueueRow>()

export const columns = helper.columns([
  helper.accessor('taskId', {
    header: () => <Head id="task" long="Task" title="The task's id; ⚑ marks a flagged task" />,
    cell: (c) => (
      <span className="task-cell">
        <span className="mono truncate">{c.getValue()}</span>
        <FlagMark flags={c.row.original.flags} />
      </span>
    )
  }),
  helper.accessor('group', { header: () => <Head id="group" long="Group" title="The task's group, as imported" />, cell: (c) => c.getValue() ?? '—' }),
  helper.accessor('question', { header: () => <Head id="question" long="Question" title="The task's question" />, cell: (c) => <span className="truncate">{c.getValue() ?? '—'}</span> }),
  helper.display({
    id: 'answer',
    header: () => (
      <Head
        id="answer"
        long="Decision’s answer"
        short="Decision"
        title="The answer the current decision stands on and the round it was read at (r = round): acted, the answer at the stop round; deferred, the draft answer at the last round; labeled, the human label"
      />
    ),
    cell: (c) => <DecisionAnswerCell row={c.row.original} />
  }),
  helper.accessor('gap', {
    header: () => (
      <Head id="gap" long="Gap" title="Certification gap: (1 − α) minus the task's best per-round lower bound. Above 0 the task is deferred (how far from acting); 0 or below, acted" />
    ), cell: (c) => <GapBar gap={c.getValue()} /> }),
  helper.accessor('moves', { header: () => <Head id="moves" long="Moves" short="Mvs" title="Moves in the debate's transcript (proposals, votes, challenges…)" />, cell: (c) => c.getValue() }),
  helper.accessor('disagreement', {
    header: () => (
      <Head id="disagreement" long="Disagreement" short="Disagr." title="How split the council ended: 1 − the share of seats on the most-held answer at the last round (0 = unanimous)" />
    ), cell: (c) => (c.getValue() === null ? '—' : c.getValue()!.toFixed(2)) }),
  helper.accessor('createdAt', { header: () => <Head id="age" long="Age" title="Time since the task was imported" />, cell: (c) => age(c.getValue()) }),
  helper.display({ id: 'label', header: () => <Head id="label" long="Label" title="The task's human label source (random: blind, Calibrate; escalation: from Review), who holds it, or open" />, cell: (c) => <LabelState row={c.row.original} /> })
])

/**
 * A column's header: what the column shows, on hover (a short form below 1200 px, where the grid
 * narrows to fit 1024-px windows: the grid's templates are in styles.css, .queue-grid).
 */
function Head({ id, long, short, title }: { id: string; long: string; short?: string; title: string }) {
  return (
    <span data-testid="queue-head" data-column={id} title={title}>
      {short === undefined ? (
        long
      ) : (
        <>
          <span className="wide-only">{long}</span>
          <span className="narrow-only">{short}</span>
        </>
      )}
    </span>
  )
}

function DecisionAnswerCell({ row }: { row: QueueRow }) {
  const d = decisionOf(row)
  if (d === null) return <span className="muted">—</span>
  return (
    <span className="truncate" data-testid="decision-answer" data-answer={d.answer} data-round={d.round === null ? '' : String(d.round)} data-decision={d.kind} title={d.title}>
      {d.answer} <span className="muted">{d.where}</span>
    </span>
  )
}

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
