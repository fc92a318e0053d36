/**
 * A task Calibrate drew for a login is blind to that login until it commits its label there
 * (docs/engine.md §10): the engine's verdict — answer, posterior, decision, bound, and whatever the
 * verdict grows — is hidden from it in every read, not only in Calibrate's own `task.detail
 * {blind:true}`: the task's detail asked without `blind`, its queue row and its decisions export row
 * alike. Which draws are open is the store's question (TeamStore.openDraws, one SQL rule).
 */
import type { CallContext } from '../../shared/api'
import type { Store } from '../store'

/** The tasks among `taskIds` drawn for the caller and not labeled by them since. */
export async function openDrawsFor(store: Store, ctx: CallContext, taskIds: readonly string[]): Promise<Set<string>> {
  const ids = [...new Set(taskIds)]
  if (ids.length === 0) return new Set()
  return new Set(await store.openDraws({ taskIds: ids, reviewer: ctx.reviewer }))
}

/**
 * What a row may still say of a task whose verdict is hidden: the task itself, its council's own
 * disagreement (the transcript shows it), its label, hold and flags, and which fit the queue reads.
 * Everything else is the verdict and is blanked, so a field added to the verdict is hidden too.
 */
const TASK_FIELDS = new Set(['taskId', 'question', 'group', 'candidates', 'createdAt', 'version', 'moves', 'disagreement', 'label', 'reservedBy', 'flags', 'fitId', 'method'])

function withoutVerdict<R extends object>(row: R): R {
  const out: Record<string, unknown> = {}
  // A `human` state says someone labeled it (the sealed rule shows that much), nothing of the verdict.
  for (const [k, v] of Object.entries(row)) out[k] = TASK_FIELDS.has(k) || (k === 'state' && v === 'human') ? v : typeof v === 'boolean' ? false : null
  return out as R
}

/** Queue rows and the decisions export's rows: a task with an open draw for the caller shows no verdict. */
export async function maskDrawnRows<R extends { taskId: string }>(store: Store, ctx: CallContext, rows: R[]): Promise<R[]> {
  return hideDrawnVerdicts(rows, await openDrawsFor(store, ctx, rows.map((r) => r.taskId)))
}

/** The rows of the tasks in `open` (drawn for the caller, not labeled since) without their verdicts. */
export function hideDrawnVerdicts<R extends { taskId: string }>(rows: R[], open: ReadonlySet<string>): R[] {
  return open.size === 0 ? rows : rows.map((r) => (open.has(r.taskId) ? withoutVerdict(r) : r))
}
