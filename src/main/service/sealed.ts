/**
 * The sealed rule: with N > 1 reviewers per task, a reviewer sees no other reviewer's
 * label of a task still sealed until they have committed their own — in the task's
 * detail, a resolve's conflict, recent labels, queue rows, the audit log, the label-based queue
 * filters and the exports alike. Once they have
 * labeled it, or once N reviewers have (or a ruling settled it), the labels are open to them.
 * Which tasks are sealed for whom is the store's question (TeamStore.sealedTasks, one SQL rule).
 */
import type { AuditEntryView, CallContext, QueueRow, RecentLabel } from '../../shared/api'
import { StoreError, isStoreError, type SealedViewer, type Store } from '../store'
import { openDrawsFor } from './drawn'
import { readTeamSettings } from './team-settings'

/** The tasks among `taskIds` that are sealed for the caller (none with one reviewer per task). */
export async function sealedFor(store: Store, ctx: CallContext, taskIds: readonly string[]): Promise<Set<string>> {
  const ids = [...new Set(taskIds)]
  if (ids.length === 0) return new Set()
  const { reviewersPerTask } = await readTeamSettings(store)
  if (reviewersPerTask === 1) return new Set()
  return new Set(await store.sealedTasks({ taskIds: ids, reviewer: ctx.reviewer, reviewersPerTask }))
}

/**
 * A sealed row shows the task, not its label: the engine's answer is not in the row either, so none.
 * Queue rows and the exports' decision rows alike.
 */
export async function maskQueueRows<R extends Pick<QueueRow, 'taskId' | 'answer'> & { label: object | null }>(store: Store, ctx: CallContext, rows: R[]): Promise<R[]> {
  const sealed = await sealedFor(store, ctx, rows.filter((r) => r.label !== null).map((r) => r.taskId))
  return rows.map((r) => (sealed.has(r.taskId) ? { ...r, label: null, answer: null } : r))
}

/** Others' labels of sealed tasks are left out (the caller's own undone ones stay): recent labels, label exports. */
export async function maskRecentLabels<R extends Pick<RecentLabel, 'taskId' | 'reviewer'>>(store: Store, ctx: CallContext, rows: R[]): Promise<R[]> {
  const sealed = await sealedFor(store, ctx, rows.map((r) => r.taskId))
  return rows.filter((r) => !sealed.has(r.taskId) || r.reviewer === ctx.reviewer)
}

/**
 * What a label row of the audit log says that names or identifies a label: the label itself, and
 * the ids an undo would take (who knows a label's id could name it in a call).
 */
const LABEL_DETAILS: readonly string[] = ['label', 'labelId', 'undone', 'supersedes']

/** What a flag row of the audit log says that task.detail would hide: the flagger's reason. */
const FLAG_DETAILS: readonly string[] = ['reason']

/**
 * The tasks whose other reviewers' flag reasons the caller may not read (a reason may say what the
 * council argued, or what the flagger would answer): sealed for them, or drawn for them blind and
 * not labeled since — the rule task.detail applies to its `flags`.
 */
export async function flagsHiddenFor(store: Store, ctx: CallContext, taskIds: readonly string[]): Promise<Set<string>> {
  const [sealed, drawn] = await Promise.all([sealedFor(store, ctx, taskIds), openDrawsFor(store, ctx, taskIds)])
  return new Set([...sealed, ...drawn])
}

/** Others' flags of tasks whose flags are hidden from the caller are left out (their own stay): the flags export. */
export async function maskFlags<R extends { taskId: string; reviewer: string }>(store: Store, ctx: CallContext, rows: R[]): Promise<R[]> {
  const hidden = await flagsHiddenFor(store, ctx, rows.filter((r) => r.reviewer !== ctx.reviewer).map((r) => r.taskId))
  return rows.filter((r) => r.reviewer === ctx.reviewer || !hidden.has(r.taskId))
}

/**
 * A label row of the audit log (record, import, undo, ruling) on a sealed task, someone else's, loses
 * the label and its ids; a flag row on a task whose flags are hidden from the caller loses its reason.
 */
export async function maskAuditEntries(store: Store, ctx: CallContext, rows: AuditEntryView[]): Promise<AuditEntryView[]> {
  const others = rows.filter((a) => a.target !== null && a.reviewer !== ctx.reviewer)
  const isLabel = (a: AuditEntryView) => a.action.startsWith('label.')
  const isFlag = (a: AuditEntryView) => a.action === 'task.flag'
  const [sealed, flagsHidden] = await Promise.all([
    sealedFor(store, ctx, others.filter(isLabel).map((a) => a.target as string)),
    flagsHiddenFor(store, ctx, others.filter(isFlag).map((a) => a.target as string))
  ])
  return rows.map((a) => {
    if (a.target === null || a.reviewer === ctx.reviewer) return a
    const hidden = isLabel(a) && sealed.has(a.target) ? LABEL_DETAILS : isFlag(a) && flagsHidden.has(a.target) ? FLAG_DETAILS : null
    if (hidden === null) return a
    const details = { ...a.details }
    for (const k of hidden) delete details[k]
    return { ...a, details }
  })
}

/** The caller under the sealed rule, for the store's label-based filters; null with one reviewer per task. */
export async function sealedViewerOf(store: Store, ctx: CallContext): Promise<SealedViewer | null> {
  const { reviewersPerTask } = await readTeamSettings(store)
  return reviewersPerTask === 1 ? null : { reviewer: ctx.reviewer, reviewersPerTask }
}

/** A resolve's conflict names the task's latest live label; for a sealed task that is someone else's. */
export async function maskConflict(store: Store, ctx: CallContext, taskId: string, error: unknown): Promise<unknown> {
  if (!isStoreError(error) || error.code !== 'conflict' || !('latestLiveLabel' in error.details)) return error
  if (!(await sealedFor(store, ctx, [taskId])).has(taskId)) return error
  return new StoreError('conflict', error.message, { ...error.details, latestLiveLabel: null })
}
