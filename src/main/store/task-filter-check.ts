/** The parts of a task filter that hold no SQL: its check, and the shape both backends build from it. */
import { LABEL_SOURCES, StoreError, TASK_STATES, type SealedViewer, type QueueQuery, type TaskFilter } from './contract'
import { checkId, checkInt, checkNullableString, checkOneOf } from './validate'

export type FilterMode = 'decided' | 'tasks'

export type Built = { from: string; fromParams: unknown[]; where: string[]; params: unknown[]; mode: FilterMode }

export function checkFilter(f: TaskFilter): TaskFilter {
  if (f === null || typeof f !== 'object') throw new StoreError('bad_input', 'filter must be an object')
  const nullable = <T extends string>(v: unknown, allowed: readonly T[], what: string): T | null =>
    v === null || v === undefined ? null : checkOneOf(v, allowed, what)
  if (f.spotCheck !== null && f.spotCheck !== undefined && typeof f.spotCheck !== 'boolean') {
    throw new StoreError('bad_input', 'filter.spotCheck must be a boolean or null')
  }
  if (f.flagged !== null && f.flagged !== undefined && typeof f.flagged !== 'boolean') {
    throw new StoreError('bad_input', 'filter.flagged must be a boolean or null')
  }
  return {
    decision: nullable(f.decision, TASK_STATES, 'filter.decision'),
    group: checkNullableString(f.group, 'filter.group'),
    seat: checkNullableString(f.seat, 'filter.seat'),
    candidate: checkNullableString(f.candidate, 'filter.candidate'),
    labelSource: nullable(f.labelSource, LABEL_SOURCES, 'filter.labelSource'),
    spotCheck: f.spotCheck ?? null,
    search: checkNullableString(f.search, 'filter.search'),
    flagged: f.flagged ?? null
  }
}

/** The queue query's viewer session, checked; null: no viewer (every task, reservations or not). */
export function viewerOf(query: QueueQuery): string | null {
  return query.viewerSession === null || query.viewerSession === undefined ? null : checkId(query.viewerSession, 'viewerSession')
}

/** The reviewer whose open draws the verdict-based filters skip, checked; null when none is given. */
export function drawnForOf(reviewer: string | null | undefined): string | null {
  return reviewer === null || reviewer === undefined ? null : checkId(reviewer, 'drawnFor')
}

/** The sealed viewer, checked; null when none is given or with one reviewer per task (no sealed rule). */
export function sealedViewerOf(v: SealedViewer | null | undefined): SealedViewer | null {
  if (v === null || v === undefined) return null
  const reviewersPerTask = checkInt(v.reviewersPerTask, 'sealedViewer.reviewersPerTask', 1)
  return reviewersPerTask === 1 ? null : { reviewer: checkId(v.reviewer, 'sealedViewer.reviewer'), reviewersPerTask }
}
