/**
 * One structured task filter → SQL, shared by the queue page and the exports so an export is
 * exactly what the queue shows (FORMATS.md `export`). Two shapes of query:
 * - `decided` (state act | defer): driven by the current fit's decisions table, so every queue
 *   order is a walk of one of its indexes (0004's DECISION_INDEXES; the EXPLAIN QUERY PLAN test);
 * - `tasks` (state human, or any): driven by the published tasks, each joined to its current
 *   decision and its effective label.
 * A task's state: `human` when it has a live label, else its decision under the current fit; its
 * label is the effective one (none while its reviewers disagree).
 */
import type { Built, FilterMode } from '../task-filter-check'
import { NOT_HELD_BY_OTHERS } from '../reservation-rules'
import { QUEUE_SORTS, type QueueSort, type TaskFilter } from '../contract'
import { checkOneOf } from '../validate'
import { EFFECTIVE_LABEL_ID, LIVE_LABEL } from './tallies'
import { HAS_LIVE_LABEL } from '../label-rules'
import { decisionsTable } from '../fit-decisions'

/** Words of the search text, each a quoted FTS5 prefix term (quotes cannot occur inside one). */
export function ftsQuery(text: string): string | null {
  const words = text.match(/[\p{L}\p{N}_]+/gu)?.slice(0, 16) ?? []
  return words.length === 0 ? null : words.map((w) => `"${w}"*`).join(' ')
}

export { rowColumns } from '../queue-row'

/**
 * The FROM and WHERE of a filter under fit `fitId` (null: no fit yet). `forceTasks` builds the
 * task-driven shape whatever the state (exports walk task ids). `viewerSession`: leave out the
 * tasks another session holds (the caller's queue).
 */
export function buildFilter(f: TaskFilter, fitId: string | null, now: string, forceTasks = false, viewerSession: string | null = null): Built {
  const decided = !forceTasks && (f.decision === 'act' || f.decision === 'defer')
  const reservation = `LEFT JOIN reservations r ON r.task_id = t.id AND r.expires_at > ?`
  const where: string[] = []
  const params: unknown[] = []
  let from: string
  const fromParams: unknown[] = []
  if (decided) {
    from = `${decisionsTable(fitId)} d JOIN tasks t ON t.id = d.task_id ${reservation}`
    fromParams.push(now)
    where.push('d.decision = ?', `NOT EXISTS (SELECT 1 FROM labels x WHERE x.task_id = d.task_id AND ${LIVE_LABEL('x')})`)
    params.push(f.decision)
  } else {
    // CROSS JOIN keeps tasks the outer loop: the exports' keyset pages walk the task-id index.
    from = `tasks t CROSS JOIN imports i ON i.id = t.import_id AND i.state = 'published'
      LEFT JOIN ${decisionsTable(fitId)} d ON d.task_id = t.id
      LEFT JOIN labels l ON l.id = ${EFFECTIVE_LABEL_ID('t.id')} ${reservation}`
    fromParams.push(now)
    // `human` is any live label, agreeing or not (a task awaiting adjudication has no effective one).
    if (f.decision === 'human') where.push(HAS_LIVE_LABEL('t.id'))
    else if (f.decision !== null) {
      where.push(`NOT ${HAS_LIVE_LABEL('t.id')}`, 'd.decision = ?')
      params.push(f.decision)
    }
  }
  if (viewerSession !== null) {
    where.push(NOT_HELD_BY_OTHERS(decided ? 'd.task_id' : 't.id'))
    params.push(now, viewerSession)
  }
  if (f.group !== null) {
    where.push(decided ? 'd.task_group = ?' : 't.grp = ?')
    params.push(f.group)
  }
  if (f.seat !== null) {
    // Decided: on d.task_id, so the page's inner query needs the decisions alone (queue.ts).
    where.push(`EXISTS (SELECT 1 FROM task_tallies tt, json_each(tt.seats) je WHERE tt.task_id = ${decided ? 'd.task_id' : 't.id'} AND je.value = ?)`)
    params.push(f.seat)
  }
  if (f.candidate !== null) {
    where.push(decided ? 'd.answer = ?' : 'COALESCE(l.label, d.answer) = ?')
    params.push(f.candidate)
  }
  if (f.labelSource !== null) {
    // Decided tasks have no live label by definition, so no label source matches.
    where.push(decided ? '0' : 'l.source = ?')
    if (!decided) params.push(f.labelSource)
  }
  if (f.spotCheck !== null) {
    where.push('COALESCE(d.spot_check, 0) = ?')
    params.push(f.spotCheck ? 1 : 0)
  }
  if (f.search !== null && f.search.trim() !== '') {
    const fts = ftsQuery(f.search)
    const id = decided ? 'd.task_id' : 't.id'
    if (fts === null) {
      where.push(`${id} = ?`)
      params.push(f.search.trim())
    } else {
      where.push(`(${id} = ? OR ${id} IN (SELECT task_id FROM task_search WHERE task_search MATCH ?))`)
      params.push(f.search.trim(), fts)
    }
  }
  return { from, fromParams, where, params, mode: decided ? 'decided' : 'tasks' }
}

/** ORDER BY of a queue sort; `asc` is the sort's natural order (see QueueQuery). */
export function orderBy(sort: QueueSort, direction: 'asc' | 'desc', mode: FilterMode): string {
  checkOneOf(sort, QUEUE_SORTS, 'sort')
  checkOneOf(direction, ['asc', 'desc'] as const, 'direction')
  const id = mode === 'decided' ? 'd.task_id' : 't.id'
  const cols: [string, 'ASC' | 'DESC'][] = (() => {
    switch (sort) {
      case 'gap':
        return [['d.gap', 'ASC'], [id, 'ASC']]
      case 'age':
        return [[mode === 'decided' ? 'd.task_created_at' : 't.created_at', 'ASC'], [id, 'ASC']]
      case 'disagreement':
        return [['d.disagreement', 'DESC'], [id, 'DESC']]
      case 'group':
        return [[mode === 'decided' ? 'd.task_group' : 't.grp', 'ASC'], ['d.gap', 'ASC'], [id, 'ASC']]
    }
  })()
  const flip = (d: 'ASC' | 'DESC') => (direction === 'asc' ? d : d === 'ASC' ? 'DESC' : 'ASC')
  return cols.map(([c, d]) => `${c} ${flip(d)}`).join(', ')
}
