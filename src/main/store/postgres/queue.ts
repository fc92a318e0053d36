/**
 * The review queue and the filtered listings behind exports, and the filter facets (Calibrate's
 * draw is a shared read plan: ../team-reads.ts). All reads; each is one snapshot.
 */
import { type Facets, type LabelRecord, type QueuePage, type QueueQuery, type TaskFilter, type TaskRow } from '../contract'
import { checkInt } from '../validate'
import type { PgSql } from './connection'
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
import { POSTGRES } from './dialect'

/** The total of an unfiltered act / defer view from the fit's stored counts (null: count the rows). */
async function decidedTotal(q: PgSql, f: TaskFilter, fitId: string | null, now: string, viewer: string | null): Promise<number | null> {
  if (fitId === null || (f.decision !== 'defer' && f.decision !== 'act')) return null
  if (f.group !== null || f.seat !== null || f.candidate !== null || f.labelSource !== null || f.spotCheck !== null || (f.search !== null && f.search.trim() !== '')) return null
  const c = await runPlan(q, decidedCounts(fitId))
  if (c === null) return null
  const held = viewer === null ? 0 : ((await q.get<{ n: number }>(HELD_IN_DECIDED_VIEW(LIVE_LABEL, decisionsTable(fitId)), now, viewer, f.decision))?.n ?? 0)
  return (f.decision === 'defer' ? c.deferred : c.acted) - held
}

/** The viewer whose queue must skip others' holds; null when none is given or nobody else holds a task. */
async function skipping(q: PgSql, now: string, viewer: string | null): Promise<string | null> {
  return viewer !== null && (await q.get(ANY_HELD_BY_OTHERS, now, viewer)) !== undefined ? viewer : null
}

export async function queuePage(q: PgSql, now: string, query: QueueQuery): Promise<QueuePage> {
  const filter = checkFilter(query.filter)
  const offset = checkInt(query.offset, 'offset')
  const limit = checkInt(query.limit, 'limit', 1)
  const viewer = await skipping(q, now, viewerOf(query))
  const fit = await runPlan(q, latestDecidedFit(POSTGRES))
  const fitId = fit?.id ?? null
  const b = buildFilter(filter, fitId, now, false, viewer)
  const where = b.where.length === 0 ? '' : `WHERE ${b.where.join(' AND ')}`
  const total =
    (await decidedTotal(q, filter, fitId, now, viewer)) ??
    (await q.get<{ n: number }>(`SELECT count(*) AS n FROM ${b.from} ${where}`, ...b.fromParams, ...b.params))?.n ??
    0
  const rows = await q.all<QueueRow>(
    `SELECT ${rowColumns(b.mode)} FROM ${b.from} ${where} ORDER BY ${orderBy(query.sort, query.direction, b.mode)} LIMIT ? OFFSET ?`,
    ...b.fromParams, ...b.params, Math.min(limit, 1000), offset
  )
  return { rows: rows.map((r) => toTaskRow(r, fit)), total, fitId }
}

export async function filteredTasks(q: PgSql, now: string, filter: TaskFilter, afterTaskId: string | null, limit: number): Promise<TaskRow[]> {
  const f = checkFilter(filter)
  checkInt(limit, 'limit', 1)
  const fit = await runPlan(q, latestDecidedFit(POSTGRES))
  const b = buildFilter(f, fit?.id ?? null, now, true)
  const where = ['t.id > ?', ...b.where].join(' AND ')
  const rows = await q.all<QueueRow>(
    `SELECT ${rowColumns(b.mode)} FROM ${b.from} WHERE ${where} ORDER BY t.id LIMIT ?`,
    ...b.fromParams, afterTaskId ?? '', ...b.params, Math.min(limit, 10_000)
  )
  return rows.map((r) => toTaskRow(r, fit))
}

export async function filteredLabels(q: PgSql, now: string, filter: TaskFilter, afterTaskId: string | null, limit: number): Promise<{ rows: LabelRecord[]; lastTaskId: string | null }> {
  const tasks = await filteredTasks(q, now, filter, afterTaskId, limit)
  const labeled = tasks.filter((t) => t.state === 'human').map((t) => t.taskId)
  // One statement for the page: task-id order, then recording order.
  const rows = labeled.length === 0
    ? []
    : (await q.all<LabelRow>(
        `SELECT ${LABEL_COLUMNS} FROM labels WHERE task_id = ANY(?::text[]) AND ${LIVE_LABEL('labels')} ORDER BY task_id, seq`,
        labeled
      )).map(toLabel)
  return { rows, lastTaskId: tasks.length === 0 ? null : tasks[tasks.length - 1].taskId }
}

export async function facets(q: PgSql): Promise<Facets> {
  const groups = await q.all<{ grp: string | null; n: number }>(
    `SELECT t.grp, count(*) AS n FROM tasks t JOIN imports i ON i.id = t.import_id AND i.state = 'published' GROUP BY t.grp ORDER BY t.grp NULLS FIRST`
  )
  const seats = await q.all<{ id: string }>(
    `SELECT DISTINCT s.id FROM seats s JOIN imports i ON i.id = s.import_id AND i.state = 'published' ORDER BY s.id`
  )
  return { groups: groups.map((g) => ({ group: g.grp, count: g.n })), seats: seats.map((s) => s.id) }
}
