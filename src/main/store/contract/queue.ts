/**
 * The review queue: the filtered, sorted task list and its exports, a task's detail,
 * Calibrate's draw, and reservations (who is looking at a task).
 */
import type { DrawResult } from '../../../shared/contract/calibrate'
import type { Reservation, ReserveResult } from '../../../shared/contract/task'
import type { DecisionKind, LabelSource, QueueSort, TaskState } from '../../../shared/vocabularies'
import type { Actor, WriteResult } from './common'
import type { DecisionWhy } from './fits'
import type { EffectiveLabel, LabelRecord } from './labels'
import type { StoredTallies, TaskTrace } from './tasks'

/**
 * Structured filter shared by the queue and the exports (so an export is exactly what the queue
 * shows). Every field null = no restriction. `candidate` matches the task's current answer (the
 * acted answer or the engine's best guess, or the human label); `seat` a seat that moved in it;
 * `search` the question's words (prefix match) or the exact task id.
 */
export type TaskFilter = {
  decision: TaskState | null
  group: string | null
  seat: string | null
  candidate: string | null
  labelSource: LabelSource | null
  spotCheck: boolean | null
  search: string | null
  /** true: flagged tasks only; false: unflagged only; absent or null: either. */
  flagged?: boolean | null
}

export type QueueQuery = {
  filter: TaskFilter
  sort: QueueSort
  /** `asc` = the sort's natural order: smallest gap (closest to acting), oldest, most disagreement, group A→Z. */
  direction: 'asc' | 'desc'
  offset: number
  limit: number
  /**
   * The caller's session: tasks that another session holds (a live reservation) are left out of
   * its queue, its own stay in. Absent or null: every task (the CLI, tools).
   */
  viewerSession?: string | null
  /** The caller under the sealed rule: label-based filters skip the tasks sealed for them (SealedViewer). */
  sealedViewer?: SealedViewer | null
  /**
   * The caller's reviewer: the filters on the verdict (decision act/defer, candidate, spot check) skip
   * the tasks Calibrate drew for them that they have not labeled since (TeamStore.openDraws).
   */
  drawnFor?: string | null
}

/**
 * A reviewer under the sealed rule with N reviewers per task: the label-based filters
 * (`candidate`, `labelSource`) match no task whose others' labels they may not see yet — to them
 * it shows no label and no answer, so it matches neither. Absent, null or N = 1: no sealed rule.
 */
export type SealedViewer = { reviewer: string; reviewersPerTask: number }

export type TaskRow = {
  taskId: string
  question: string | null
  group: string | null
  candidates: string[]
  createdAt: string
  version: number
  /** Moves in the trace. */
  moves: number
  state: TaskState | null
  /** The current fit's decision row (null when the task was labeled before that fit, or no fit). */
  decision: DecisionKind | null
  spotCheck: boolean
  answer: string | null
  posterior: Record<string, number> | null
  stopRound: number | null
  gap: number | null
  bound: (number | null)[] | null
  disagreement: number | null
  fitId: string | null
  method: string | null
  decidedAt: string | null
  label: EffectiveLabel | null
  reservedBy: { reviewer: string; sessionId: string; expiresAt: string } | null
  /** Flags on the task ("can't decide"; a flag is not a label and leaves the state as it is). */
  flags: number
}

/**
 * `heldByOthers`: tasks matching the filter that the viewer's queue leaves out because another
 * session holds them (0 without a viewer): `total + heldByOthers` is what the filter matches for everyone.
 * `drawn`: the page's tasks Calibrate drew for `drawnFor` that they have not labeled since
 * (TeamStore.openDraws, read in the page's snapshot); empty without `drawnFor`.
 */
export type QueuePage = { rows: TaskRow[]; total: number; heldByOthers: number; fitId: string | null; drawn: string[] }

export type Facets = { groups: { group: string | null; count: number }[]; seats: string[] }

export type DecisionRecord = {
  fitId: string
  taskId: string
  decision: DecisionKind
  spotCheck: boolean
  answer: string | null
  posterior: Record<string, number>
  stopRound: number | null
  gap: number | null
  bound: (number | null)[] | null
  k: (number | null)[] | null
  why: DecisionWhy | null
  reason: string | null
  disagreement: number | null
  decidedAt: string
}

export type TaskDetailRecord = {
  task: TaskTrace
  /** Hidden truth: returned, but the service shows it only once the task has a live label. */
  gold: string | null
  liveLabels: LabelRecord[]
  /** Every row of the task's label log, undo markers included, in recording order. */
  labelLog: LabelRecord[]
  /** Under the current fit, and under the fit before it (to say "back in the queue"). */
  decision: DecisionRecord | null
  previousDecision: DecisionRecord | null
  reservation: Reservation | null
  tallies: StoredTallies | null
}

/** A reserve as the store did it: the console's ReserveResult, and what only the service acts on. */
export type ReserveOutcome = ReserveResult & {
  /** The caller already held it: the hold was extended (not audited, not news to others). */
  renewed: boolean
  /**
   * Holds of the caller's session this one ended: a session holds at most
   * MAX_HOLDS_PER_SESSION tasks (the one open, the one "next" claims), so a further one releases
   * the least recently reserved or renewed.
   */
  released: string[]
}

/**
 * Random draw for Calibrate: `at` in [0, 1) picks the ⌊at·n⌋-th drawable task (service supplies it).
 * With `reviewersPerTask` N > 1 a task stays drawable until N reviewers labeled it, never for a
 * `reviewer` who already did (label-rules.ts); default 1: tasks without a live label.
 */
export type DrawInput = { at: number; exclude: string[]; spotCheckOnly: boolean; reviewer?: string | null; reviewersPerTask?: number }

export interface QueueStore {
  queuePage(query: QueueQuery): Promise<QueuePage>
  /** Keyset page of the same filter in task-id order (exports stream through it). */
  filteredTasks(filter: TaskFilter, afterTaskId: string | null, limit: number, viewer?: SealedViewer | null, drawnFor?: string | null): Promise<TaskRow[]>
  /** Live labels of the next `limit` tasks the filter selects (task-id, then recording order). */
  filteredLabels(filter: TaskFilter, afterTaskId: string | null, limit: number, viewer?: SealedViewer | null, drawnFor?: string | null): Promise<{ rows: LabelRecord[]; lastTaskId: string | null }>
  facets(): Promise<Facets>
  taskDetail(taskId: string): Promise<TaskDetailRecord>
  drawUnlabeled(input: DrawInput): Promise<DrawResult>
  /** `seenVersion`: a claim for "next" (see `task.reserve`): passed over when the task changed since, or the caller flagged it. */
  reserveTask(taskId: string, actor: Actor, ttlMs: number, seenVersion?: number): Promise<WriteResult<ReserveOutcome>>
  releaseTask(taskId: string, actor: Actor): Promise<WriteResult<boolean>>
  /**
   * Ends whoever's live hold on the task (an adjudicator's release; the service checks who may):
   * the hold ended, or null when there was none. Audited as `task.release` naming the holder.
   */
  releaseHold(taskId: string, actor: Actor): Promise<WriteResult<Reservation | null>>
}
