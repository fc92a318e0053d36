/**
 * The review queue and the filtered listings behind exports, and the filter facets (Calibrate's
 * draw is a shared read plan: ../team-reads.ts). All reads; each is one snapshot.
 */
import { type Facets, type LabelRecord, type QueuePage, type QueueQuery, type TaskFilter, type TaskRow } from '../contract'
import { checkInt } from '../validate'
import type { Sql } from './connection'
import { decidedCounts } from '../ops/decided-counts'
import { latestDecidedFit } from '../ops/fits'
import { decisionsTable } from '../fit-decisions'
import { toTaskRow, type QueueRow } from '../queue-row'
import { LABEL_COLUMNS, toLabel, type LabelRow } from '../rows'
import { LIVE_LABEL } from './tallies'
import { checkFilter, viewerOf } from '../task-filter-check'
import { ANY_HELD_BY_OTHERS, HELD_IN_DECIDED_VIEW } from '../reservation-rules'
import { buildFilter, orderBy, rowColumns } from './task-filter'
import { runPlan } from './plan-driver'
import { SQLITE } from './dialect'

/** The total of an unfiltered act / defer view from the fit's stored counts (null: count the rows). */
function decidedTotal(q: Sql, f: TaskFilter, fitId: string | null, now: string, viewer: string | null): number | null {
  if (fitId === null || (f.decision !== 'defer' && f.decision !== 'act')) return null
  if (f.group !== null || f.seat !== null || f.candidate !== null || f.labelSource !== null || f.spotCheck !== null || (f.search !== null && f.search.trim() !== '')) return null
  const c = runPlan(q, decidedCounts(fitId))
  if (c === null) return null
  const held = viewer === null ? 0 : (q.get<{ n: number }>(HELD_IN_DECIDED_VIEW(LIVE_LABEL, decisionsTable(fitId)), now, viewer, f.decision)?.n ?? 0)
  return (f.decision === 'defer' ? c.deferred : c.acted) - held
}

/** The viewer whose queue must skip others' holds; null when none is given or nobody else holds a task. */
function skipping(q: Sql, now: string, viewer: string | null): string | null {
  return viewer !== null && q.get(ANY_HELD_BY_OTHERS, now, viewer) !== undefined ? viewer : null
}

export function queuePage(q: Sql, now: string, query: QueueQuery): QueuePage {
  const filter = checkFilter(query.filter)
  const offset = checkInt(query.offset, 'offset')
  const limit = checkInt(query.limit, 'limit', 1)
  const viewer = skipping(q, now, viewerOf(query))
  const fit = runPlan(q, latestDecidedFit(SQLITE))
  const fitId = fit?.id ?? null
  const b = buildFilter(filter, fitId, now, false, viewer)
  const where = b.where.length === 0 ? '' : `WHERE ${b.where.join(' AND ')}`
  const total = decidedTotal(q, filter, fitId, now, viewer) ?? q.get<{ n: number }>(`SELECT count(*) AS n FROM ${b.from} ${where}`, ...b.fromParams, ...b.params)?.n ?? 0
  const order = orderBy(query.sort, query.direction, b.mode)
  const rows =
    b.mode === 'decided'
      ? // The page's decision rows first, from the decisions alone (a covering walk of one queue
        // index); only those 50 are joined to their tasks. A deep offset then skips index entries,
        // not joined rows.
        q.all<QueueRow>(
          `SELECT ${rowColumns(b.mode)} FROM ${b.from} WHERE d.task_id IN (
             SELECT d.task_id FROM ${decisionsTable(fitId)} d ${where} ORDER BY ${order} LIMIT ? OFFSET ?)
           ORDER BY ${order}`,
          ...b.fromParams, ...b.params, Math.min(limit, 1000), offset
        )
      : q.all<QueueRow>(
          `SELECT ${rowColumns(b.mode)} FROM ${b.from} ${where} ORDER BY ${order} LIMIT ? OFFSET ?`,
          ...b.fromParams, ...b.params, Math.min(limit, 1000), offset
        )
  return { rows: rows.map((r) => toTaskRow(r, fit)), total, fitId }
}

export function filteredTasks(q: Sql, now: string, filter: TaskFilter, afterTaskId: string | null, limit: number): TaskRow[] {
  const f = checkFilter(filter)
  checkInt(limit, 'limit', 1)
  const fit = runPlan(q, latestDecidedFit(SQLITE))
  const b = buildFilter(f, fit?.id ?? null, now, true)
  const where = ['t.id > ?', ...b.where].join(' AND ')
  const rows = q.all<QueueRow>(
    `SELECT ${rowColumns(b.mode)} FROM ${b.from} WHERE ${where} ORDER BY t.id LIMIT ?`,
    ...b.fromParams, afterTaskId ?? '', ...b.params, Math.min(limit, 10_000)
  )
  return rows.map((r) => toTaskRow(r, fit))
}

export function filteredLabels(q: Sql, now: string, filter: TaskFilter, afterTaskId: string | null, limit: number): { rows: LabelRecord[]; lastTaskId: string | null } {
  const tasks = filteredTasks(q, now, filter, afterTaskId, limit)
  const rows: LabelRecord[] = []
  for (const t of tasks) {
    if (t.state !== 'human') continue
    rows.push(...q.all<LabelRow>(`SELECT ${LABEL_COLUMNS} FROM labels WHERE task_id = ? AND ${LIVE_LABEL('labels')} ORDER BY rowid`, t.taskId).map(toLabel))
  }
  return { rows, lastTaskId: tasks.length === 0 ? null : tasks[tasks.length - 1].taskId }
}

export function facets(q: Sql): Facets {
  const groups = q.all<{ grp: string | null; n: number }>(
    `SELECT t.grp, count(*) AS n FROM tasks t JOIN imports i ON i.id = t.import_id AND i.state = 'published' GROUP BY t.grp ORDER BY t.grp`
  )
  const seats = q.all<{ id: string }>(
    `SELECT DISTINCT s.id FROM seats s JOIN imports i ON i.id = s.import_id AND i.state = 'published' ORDER BY s.id`
  )
  return { groups: groups.map((g) => ({ group: g.grp, count: g.n })), seats: seats.map((s) => s.id) }
}
