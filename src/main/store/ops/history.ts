/**
 * A reviewer's own labels, newest first: the console's history panel, and
 * what its undo takes back — the reviewer's, from the store, so it survives a reload and follows
 * the reviewer, not the window. Each row says whether its task has moved on since (a later row of
 * the task that is not the label's own undo or replacement: another reviewer's label, an
 * adjudication), which makes an undo of it a conflict (labels.ts `undoLabel`).
 */
import { LABEL_SOURCES, type LaterLabel, type ReviewerLabel, type ReviewerLabelsQuery } from '../contract'
import { rowOf, rowsOf, type Plan } from '../plan'
import { LABEL_COLUMNS, isSet, toLabel, type LabelRow, type SqlFlag } from '../rows'
import { checkId, checkInt, checkOneOf } from '../validate'
import type { Dialect } from './dialect'

type LaterRow = { id: string; reviewer: string; label: string | null; adjudicated: SqlFlag; at: string }

/** The newest row of the label's task recorded after it that does not supersede it; null when none. */
export function* laterLabel(d: Dialect, labelId: string): Plan<LaterLabel | null> {
  const row = yield* rowOf<LaterRow>(
    `SELECT m.id, m.reviewer, m.label, m.adjudicated, m.at
     FROM labels o JOIN labels m ON m.task_id = o.task_id AND m.${d.seq} > o.${d.seq}
     WHERE o.id = ? AND (m.supersedes IS NULL OR m.supersedes <> o.id)
     ORDER BY m.${d.seq} DESC LIMIT 1`,
    labelId
  )
  return row === undefined ? null : { id: row.id, reviewer: row.reviewer, label: row.label, adjudicated: isSet(row.adjudicated), at: row.at }
}

export function* reviewerLabels(d: Dialect, query: ReviewerLabelsQuery): Plan<ReviewerLabel[]> {
  const reviewer = checkId(query.reviewer, 'reviewer')
  const limit = Math.min(checkInt(query.limit, 'limit', 1), 1000)
  const where = ['l.reviewer = ?', 'l.label IS NOT NULL']
  const params: unknown[] = [reviewer]
  if (query.source !== undefined && query.source !== null) {
    where.push('l.source = ?')
    params.push(checkOneOf(query.source, LABEL_SOURCES, 'source'))
  }
  if (query.taskId !== undefined && query.taskId !== null) {
    where.push('l.task_id = ?')
    params.push(checkId(query.taskId, 'taskId'))
  }
  if (query.adjudicated !== undefined && query.adjudicated !== null) {
    where.push('l.adjudicated = ?')
    params.push(d.bool(query.adjudicated === true))
  }
  const superseded = 'EXISTS (SELECT 1 FROM labels s WHERE s.supersedes = l.id)'
  if (query.liveOnly === true) where.push(`NOT ${superseded}`)
  const rows = yield* rowsOf<LabelRow & { question: string | null; task_version: number; superseded: SqlFlag }>(
    `SELECT ${LABEL_COLUMNS.split(', ').map((c) => `l.${c}`).join(', ')}, t.question, t.version AS task_version, ${superseded} AS superseded
     FROM labels l JOIN tasks t ON t.id = l.task_id JOIN imports i ON i.id = t.import_id AND i.state = 'published'
     WHERE ${where.join(' AND ')} ORDER BY l.${d.seq} DESC LIMIT ?`,
    ...params, limit
  )
  const out: ReviewerLabel[] = []
  for (const r of rows) {
    const live = !isSet(r.superseded)
    out.push({
      ...toLabel(r),
      question: r.question,
      live,
      taskVersion: Number(r.task_version),
      // Only a live label can still be undone, so only its task's later rows matter.
      movedOn: live ? yield* laterLabel(d, r.id) : null
    })
  }
  return out
}
