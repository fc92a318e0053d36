/**
 * One structured task filter → SQL, shared by the queue page and the exports so an export is
 * exactly what the queue shows (docs/formats.md `export`). Two shapes of query:
 * - `decided` (state act | defer): driven by the current fit's decisions table, so every queue
 *   order is a walk of one of its indexes (DECISION_INDEXES; the query plan tests);
 * - `tasks` (state human, or any): driven by the published tasks, each joined to its current
 *   decision and its effective label.
 * A task's state: `human` when it has a live label, else its decision under the current fit; its
 * label is the effective one (none while its reviewers disagree).
 */
import { QUEUE_SORTS, type QueueSort, type SealedViewer, type TaskFilter } from '../contract'
import { decisionsTable } from '../fit-decisions'
import { EFFECTIVE_LABEL_ID, HAS_LIVE_LABEL, OPEN_DRAW, SEALED_FOR } from '../label-rules'
import { NOT_HELD_BY_OTHERS } from '../reservation-rules'
import type { Built, FilterMode } from '../task-filter-check'
import { checkOneOf } from '../validate'
import type { Dialect } from './dialect'

export { rowColumns } from '../queue-row'

/**
 * The FROM and WHERE of a filter under fit `fitId` (null: no fit yet). `forceTasks` builds the
 * task-driven shape whatever the state (exports walk task ids). `viewerSession`: leave out the
 * tasks another session holds (the caller's queue). `sealed`: the caller under the sealed rule
 * (checked, N > 1), whose label-based filters skip the tasks sealed for them. `drawnFor`: a
 * reviewer with open Calibrate draws (checked), whose verdict-based filters skip those tasks.
 */
export function buildFilter(d: Dialect, f: TaskFilter, fitId: string | null, now: string, forceTasks = false, viewerSession: string | null = null, sealed: SealedViewer | null = null, drawnFor: string | null = null): Built {
  const decided = !forceTasks && (f.decision === 'act' || f.decision === 'defer')
  const reservation = `LEFT JOIN reservations r ON r.task_id = t.id AND r.expires_at > ?`
  const where: string[] = []
  const params: unknown[] = []
  let from: string
  const fromParams: unknown[] = []
  if (decided) {
    from = `${decisionsTable(fitId)} d JOIN tasks t ON t.id = d.task_id ${reservation}`
    fromParams.push(now)
    where.push('d.decision = ?', d.unlabeledDecision)
    params.push(f.decision)
  } else {
    // Tasks the outer loop: the exports' keyset pages walk the task-id index.
    from = `tasks t ${d.joinInOrder} imports i ON i.id = t.import_id AND i.state = 'published'
      LEFT JOIN ${decisionsTable(fitId)} d ON d.task_id = t.id
      LEFT JOIN labels l ON l.id = ${EFFECTIVE_LABEL_ID('t.id', d)} ${reservation}`
    fromParams.push(now)
    // `human` is any live label, agreeing or not (a task awaiting adjudication has no effective one).
    if (f.decision === 'human') where.push(HAS_LIVE_LABEL('t.id'))
    else if (f.decision !== null) {
      where.push(`NOT ${HAS_LIVE_LABEL('t.id')}`, 'd.decision = ?')
      params.push(f.decision)
    }
  }
  const id = decided ? 'd.task_id' : 't.id'
  if (viewerSession !== null) {
    where.push(NOT_HELD_BY_OTHERS(id))
    params.push(now, viewerSession)
  }
  if (f.group !== null) {
    where.push(decided ? 'd.task_group = ?' : 't.grp = ?')
    params.push(f.group)
  }
  if (f.seat !== null) {
    // Decided: on d.task_id, so the page's inner query needs the decisions alone (queue.ts).
    where.push(`EXISTS (SELECT 1 FROM task_tallies tt, ${d.jsonTexts('tt.seats', 'je')} WHERE tt.task_id = ${id} AND je.value = ?)`)
    params.push(f.seat)
  }
  // A task sealed for the viewer shows them no label and no answer: it matches no label-based filter.
  // (Decided tasks have no live label, so none is sealed.)
  const labelBased = (sql: string, value: unknown): void => {
    where.push(decided || sealed === null ? sql : `${sql} AND NOT ${SEALED_FOR(id)}`)
    params.push(value, ...(decided || sealed === null ? [] : [sealed.reviewer, sealed.reviewersPerTask]))
  }
  if (f.candidate !== null) labelBased(decided ? 'd.answer = ?' : 'COALESCE(l.label, d.answer) = ?', f.candidate)
  if (f.labelSource !== null) {
    // Decided tasks have no live label by definition, so no label source matches.
    if (decided) where.push('1 = 0')
    else labelBased('l.source = ?', f.labelSource)
  }
  if (f.spotCheck !== null) {
    where.push('COALESCE(d.spot_check, ?) = ?')
    params.push(d.bool(false), d.bool(f.spotCheck))
  }
  if (f.flagged !== null && f.flagged !== undefined) {
    where.push(`${f.flagged ? '' : 'NOT '}EXISTS (SELECT 1 FROM flags fl WHERE fl.task_id = ${id})`)
  }
  // A task drawn for the viewer blind shows them no verdict: it matches no filter on the verdict
  // (its decision, the engine's answer, its spot check), so its presence cannot tell them one.
  const verdictBased = f.decision === 'act' || f.decision === 'defer' || f.candidate !== null || f.spotCheck !== null
  if (drawnFor !== null && verdictBased) {
    where.push(`NOT ${OPEN_DRAW(id)}`)
    params.push(drawnFor)
  }
  if (f.search !== null && f.search.trim() !== '') {
    const terms = d.searchTerms(f.search)
    if (terms === null) {
      where.push(`${id} = ?`)
      params.push(f.search.trim())
    } else {
      where.push(`(${id} = ? OR ${id} IN (SELECT task_id FROM task_search WHERE ${d.searchMatch}))`)
      params.push(f.search.trim(), terms)
    }
  }
  return { from, fromParams, where, params, mode: decided ? 'decided' : 'tasks' }
}

/** ORDER BY of a queue sort; `asc` is the sort's natural order (see QueueQuery). */
export function orderBy(d: Dialect, sort: QueueSort, direction: 'asc' | 'desc', mode: FilterMode): string {
  checkOneOf(sort, QUEUE_SORTS, 'sort')
  checkOneOf(direction, ['asc', 'desc'] as const, 'direction')
  const id = mode === 'decided' ? 'd.task_id' : 't.id'
  const cols: [string, 'ASC' | 'DESC', nullable: boolean][] = (() => {
    switch (sort) {
      case 'gap':
        return [['d.gap', 'ASC', true], [id, 'ASC', false]]
      case 'age':
        return [[mode === 'decided' ? 'd.task_created_at' : 't.created_at', 'ASC', false], [id, 'ASC', false]]
      case 'disagreement':
        return [['d.disagreement', 'DESC', true], [id, 'DESC', false]]
      case 'group':
        return [[mode === 'decided' ? 'd.task_group' : 't.grp', 'ASC', true], ['d.gap', 'ASC', true], [id, 'ASC', false]]
    }
  })()
  const flip = (x: 'ASC' | 'DESC') => (direction === 'asc' ? x : x === 'ASC' ? 'DESC' : 'ASC')
  // The NOT NULL keys (ids, times) keep each backend's default, so an index scan still serves the order.
  return cols.map(([c, x, nullable]) => `${c} ${flip(x)}${nullable ? d.nulls(flip(x)) : ''}`).join(', ')
}
