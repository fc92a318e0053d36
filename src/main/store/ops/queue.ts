/**
 * The review queue and the filtered listings behind exports, and the filter facets (Calibrate's
 * draw is a team read: team.ts). All reads; each is one snapshot.
 */
import type { Facets, LabelRecord, QueuePage, QueueQuery, SealedViewer, TaskFilter, TaskRow } from '../contract'
import { decisionsTable } from '../fit-decisions'
import { LIVE_LABEL, OPEN_DRAW } from '../label-rules'
import { rowOf, rowsOf, type Plan } from '../plan'
import { toTaskRow, type QueueRow } from '../queue-row'
import { HELD_BY_OTHERS } from '../reservation-rules'
import { LABEL_COLUMNS, toLabel, type LabelRow } from '../rows'
import { checkFilter, drawnForOf, sealedViewerOf, viewerOf } from '../task-filter-check'
import { checkInt } from '../validate'
import { decidedCounts } from './decided-counts'
import type { Dialect } from './dialect'
import { latestDecidedFit } from './fits'
import { buildFilter, orderBy, rowColumns } from './task-filter'
import { openDrawsPlan } from './team'

/**
 * The total of an unfiltered act / defer view from the fit's stored counts (null: count the rows),
 * less `held`: the view's tasks other sessions hold (heldMatching), which the viewer's queue leaves out.
 */
function* decidedTotal(d: Dialect, f: TaskFilter, fitId: string | null, held: number): Plan<number | null> {
  if (fitId === null || (f.decision !== 'defer' && f.decision !== 'act')) return null
  if (f.group !== null || f.seat !== null || f.candidate !== null || f.labelSource !== null || f.spotCheck !== null || (f.flagged ?? null) !== null || (f.search !== null && f.search.trim() !== '')) return null
  const c = yield* decidedCounts(d, fitId)
  if (c === null) return null
  return (f.decision === 'defer' ? c.deferred : c.acted) - held
}

/**
 * The tasks other sessions hold, for a viewer (none without one). A queue without any needs no
 * per-row check: a deep page walks hundreds of thousands of index entries, and a lookup each would
 * double its time for nothing.
 */
function* heldByOthersOf(now: string, viewer: string | null): Plan<string[]> {
  return viewer === null ? [] : (yield* rowsOf<{ id: string }>(HELD_BY_OTHERS, now, viewer)).map((r) => r.id)
}

/** The reviewer whose open draws the filters must skip; null when none is given or they have none. */
function* withOpenDraws(reviewer: string | null): Plan<string | null> {
  if (reviewer === null) return null
  const open = yield* rowOf(`SELECT 1 AS x FROM (SELECT DISTINCT task_id FROM draws WHERE reviewer = ?) t WHERE ${OPEN_DRAW('t.task_id')}`, reviewer, reviewer)
  return open === undefined ? null : reviewer
}

/**
 * How many of the tasks other sessions hold (`held`, a handful: a cap per login) match the filter:
 * the viewer's queue leaves them out, the counts do not, and the queue says so. Only the held tasks
 * are matched; a join from the holds left PostgreSQL free to walk the whole filter for every page.
 */
function* heldMatching(d: Dialect, filter: TaskFilter, fitId: string | null, now: string, held: string[], sealed: SealedViewer | null, drawnFor: string | null): Plan<number> {
  const q = heldMatchingQuery(d, filter, fitId, now, held, sealed, drawnFor)
  return Number((yield* rowOf<{ n: number }>(q.sql, ...q.params))?.n ?? 0)
}

/**
 * heldMatching's statement: the held ids lead, each a primary-key probe of the filter's rows. CROSS
 * JOIN: SQLite keeps the ids the outer loop (an IN list let it walk the whole view's index instead).
 */
export function heldMatchingQuery(d: Dialect, filter: TaskFilter, fitId: string | null, now: string, held: string[], sealed: SealedViewer | null, drawnFor: string | null): { sql: string; params: unknown[] } {
  const b = buildFilter(d, filter, fitId, now, false, null, sealed, drawnFor)
  const where = [`${b.mode === 'decided' ? 'd.task_id' : 't.id'} = h.id`, ...b.where].join(' AND ')
  return { sql: `SELECT count(*) AS n FROM ${d.idRows} h CROSS JOIN ${b.from} WHERE ${where}`, params: [d.idParam(held), ...b.fromParams, ...b.params] }
}

export function* queuePage(d: Dialect, now: string, query: QueueQuery): Plan<QueuePage> {
  const filter = checkFilter(query.filter)
  const offset = checkInt(query.offset, 'offset')
  const limit = checkInt(query.limit, 'limit', 1)
  const held = yield* heldByOthersOf(now, viewerOf(query))
  const viewer = held.length === 0 ? null : viewerOf(query)
  const drawnFor = yield* withOpenDraws(drawnForOf(query.drawnFor))
  const fit = yield* latestDecidedFit(d)
  const fitId = fit?.id ?? null
  const b = buildFilter(d, filter, fitId, now, false, viewer, sealedViewerOf(query.sealedViewer), drawnFor)
  const where = b.where.length === 0 ? '' : `WHERE ${b.where.join(' AND ')}`
  const heldByOthers = held.length === 0 ? 0 : yield* heldMatching(d, filter, fitId, now, held, sealedViewerOf(query.sealedViewer), drawnFor)
  const total =
    (drawnFor === null ? yield* decidedTotal(d, filter, fitId, heldByOthers) : null) ??
    (yield* rowOf<{ n: number }>(`SELECT count(*) AS n FROM ${b.from} ${where}`, ...b.fromParams, ...b.params))?.n ??
    0
  const order = orderBy(d, query.sort, query.direction, b.mode)
  const rows =
    b.mode === 'decided' && d.pageDecisionsFirst
      ? // The page's decision rows first, from the decisions alone (a covering walk of one queue
        // index); only those 50 are joined to their tasks. A deep offset then skips index entries,
        // not joined rows.
        yield* rowsOf<QueueRow>(
          `SELECT ${rowColumns(b.mode)} FROM ${b.from} WHERE d.task_id IN (
             SELECT d.task_id FROM ${decisionsTable(fitId)} d ${where} ORDER BY ${order} LIMIT ? OFFSET ?)
           ORDER BY ${order}`,
          ...b.fromParams, ...b.params, Math.min(limit, 1000), offset
        )
      : yield* rowsOf<QueueRow>(
          `SELECT ${rowColumns(b.mode)} FROM ${b.from} ${where} ORDER BY ${order} LIMIT ? OFFSET ?`,
          ...b.fromParams, ...b.params, Math.min(limit, 1000), offset
        )
  // In the page's snapshot: which of its tasks were drawn for the caller blind (their verdicts are hidden).
  const drawn = drawnFor === null || rows.length === 0 ? [] : yield* openDrawsPlan({ taskIds: rows.map((r) => r.task_id), reviewer: drawnFor }, d)
  return { rows: rows.map((r) => toTaskRow(r, fit)), total, heldByOthers, fitId, drawn }
}

export function* filteredTasks(d: Dialect, now: string, filter: TaskFilter, afterTaskId: string | null, limit: number, viewer: SealedViewer | null = null, drawnFor: string | null = null): Plan<TaskRow[]> {
  const f = checkFilter(filter)
  checkInt(limit, 'limit', 1)
  const fit = yield* latestDecidedFit(d)
  const b = buildFilter(d, f, fit?.id ?? null, now, true, null, sealedViewerOf(viewer), yield* withOpenDraws(drawnForOf(drawnFor)))
  const where = ['t.id > ?', ...b.where].join(' AND ')
  const rows = yield* rowsOf<QueueRow>(
    `SELECT ${rowColumns(b.mode)} FROM ${b.from} WHERE ${where} ORDER BY t.id LIMIT ?`,
    ...b.fromParams, afterTaskId ?? '', ...b.params, Math.min(limit, 10_000)
  )
  return rows.map((r) => toTaskRow(r, fit))
}

export function* filteredLabels(d: Dialect, now: string, filter: TaskFilter, afterTaskId: string | null, limit: number, viewer: SealedViewer | null = null, drawnFor: string | null = null): Plan<{ rows: LabelRecord[]; lastTaskId: string | null }> {
  const tasks = yield* filteredTasks(d, now, filter, afterTaskId, limit, viewer, drawnFor)
  const labeled = tasks.filter((t) => t.state === 'human').map((t) => t.taskId)
  // One statement for the page: task-id order, then recording order.
  const rows = labeled.length === 0
    ? []
    : (yield* rowsOf<LabelRow>(
        `SELECT ${LABEL_COLUMNS} FROM labels WHERE task_id IN ${d.idSet} AND ${LIVE_LABEL('labels')} ORDER BY task_id, ${d.seq}`,
        d.idParam(labeled)
      )).map(toLabel)
  return { rows, lastTaskId: tasks.length === 0 ? null : tasks[tasks.length - 1].taskId }
}

export function* facets(d: Dialect): Plan<Facets> {
  const groups = yield* rowsOf<{ grp: string | null; n: number }>(
    `SELECT t.grp, count(*) AS n FROM tasks t JOIN imports i ON i.id = t.import_id AND i.state = 'published' GROUP BY t.grp ORDER BY t.grp${d.nulls('ASC')}`
  )
  const seats = yield* rowsOf<{ id: string }>(
    `SELECT DISTINCT s.id FROM seats s JOIN imports i ON i.id = s.import_id AND i.state = 'published' ORDER BY s.id`
  )
  return { groups: groups.map((g) => ({ group: g.grp, count: g.n })), seats: seats.map((s) => s.id) }
}
