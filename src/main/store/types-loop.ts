/**
 * The operating loop's part of the store contract (issue #5): tallies, the review queue, task
 * detail, reservations, bulk labels, fit history. Same rules as types.ts — backend-neutral DTOs,
 * TEXT ids, ISO times, `null` never `undefined`, one transaction per operation.
 */
import type { TallyPackRow } from './tally-pack'
import type { TallySource } from './tally-sources'
import type {
  Actor,
  DecisionKind,
  DecisionWhy,
  FitRecord,
  ImportKind,
  ImportRecord,
  LabelRecord,
  LabelSource,
  MoveInput,
  WriteResult
} from './types'
import type { QueueSort, TaskState } from '../../shared/vocabularies'

// ── tallies ─────────────────────────────────────────────────────────────────────────────────

/**
 * One task's sufficient statistics in the engine's layout (ENGINE.md §2; engine/tallies.ts):
 * `counts` holds R·S records of width 2K + 2 (N, current answer, c(g)…, e(g)…) and `vote0` each
 * local seat's last round-0 propose/vote (−1 = none). Seats are named by id (`seatIds`, local
 * order) so any run can map them onto its own seat index.
 */
export type TallyInput = {
  K: number
  seatIds: string[]
  rounds: number[]
  counts: Int32Array
  vote0: Int32Array
  /** Top share of the `social` state at the last round (1/K for a task without moves). */
  socialP1: number
}

export type StoredTallies = TallyInput & {
  taskId: string
  candidates: string[]
  group: string | null
}

/** A task as written, moves included (for tallies backfill and the review screen). */
export type TaskTrace = {
  id: string
  question: string | null
  candidates: string[]
  group: string | null
  createdAt: string
  version: number
  importId: string
  fileName: string
  moves: MoveInput[]
  /** Seat id → model, for the seats this task's import declared. */
  models: Record<string, string | null>
}

/**
 * The label that counts for a task (label-rules.ts): its latest adjudicated live label; else, when
 * its reviewers' votes agree, the latest live one; none while they disagree.
 */
export type EffectiveLabel = {
  taskId: string
  labelId: string
  label: string
  source: LabelSource
  reviewer: string
  at: string
}

/** What the import pipeline needs to know about ids already in the database, before writing. */
export type ExistingTask = {
  taskId: string
  contentSha256: string
  candidates: string[]
  importId: string
  fileName: string
  state: 'staged' | 'published'
}

// ── the review queue ────────────────────────────────────────────────────────────────────────

export { QUEUE_SORTS, TASK_STATES, type QueueSort, type TaskState } from '../../shared/vocabularies'

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
}

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
}

export type QueuePage = { rows: TaskRow[]; total: number; fitId: string | null }

export type Facets = { groups: { group: string | null; count: number }[]; seats: string[] }

// ── task detail ─────────────────────────────────────────────────────────────────────────────

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

export type Reservation = { taskId: string; reviewer: string; sessionId: string; expiresAt: string }

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

export type ReserveResult = {
  /** The caller's reservation, or null when someone else holds a live one. */
  mine: Reservation | null
  heldBy: Reservation | null
  /** The caller already held it: the hold was extended (not audited, not news to others). */
  renewed: boolean
}

// ── labels in bulk, recent labels ───────────────────────────────────────────────────────────

export type LabelImportRow = { taskId: string; label: string; source: LabelSource; reviewer: string; at: string; note: string | null }

export type ImportLabelsInput = { fileName: string; sha256: string; kind: ImportKind; labels: LabelImportRow[] }

export type RecentLabel = LabelRecord & { question: string | null; live: boolean }

// ── fits ────────────────────────────────────────────────────────────────────────────────────

export type FitSummary = Omit<FitRecord, 'certificate'> & { current: boolean }

/**
 * Random draw for Calibrate: `at` in [0, 1) picks the ⌊at·n⌋-th drawable task (service supplies it).
 * With `reviewersPerTask` N > 1 a task stays drawable until N reviewers labeled it, never for a
 * `reviewer` who already did (label-rules.ts); default 1: tasks without a live label.
 */
export type DrawInput = { at: number; exclude: string[]; spotCheckOnly: boolean; reviewer?: string | null; reviewersPerTask?: number }
export type DrawResult = { taskId: string | null; unlabeled: number; randomLabels: number }

export interface LoopStore {
  /** Existing rows for these task ids (published or staged; abandoned ones are gone or ignored). */
  existingTasks(taskIds: string[]): Promise<ExistingTask[]>
  /** Models of the published seats that declared one (seat id → model), to refuse a clash before writing. */
  seatModels(): Promise<Record<string, string>>
  /** Published tasks' tallies in task-id order after `afterTaskId` (keyset paging). */
  tallyPage(afterTaskId: string | null, limit: number): Promise<StoredTallies[]>
  /** Published imports with tasks, oldest first, and how many of their tasks are packed (tally-pack.ts). */
  tallySources(): Promise<TallySource[]>
  /** One published import's tallies, by task id (to pack them). */
  importTallyPage(importId: string, afterTaskId: string | null, limit: number): Promise<StoredTallies[]>
  /** Part `part` (from 0) of an import's tally packs; null past the last. */
  tallyPack(importId: string, part: number): Promise<TallyPackRow | null>
  /** All of an import's packs, at once; 0 when it was already packed (by another process). */
  saveTallyPacks(importId: string, packs: TallyPackRow[]): Promise<WriteResult<number>>
  /** Published tasks that have no tallies yet (imported before tallies existed). */
  tasksWithoutTallies(limit: number): Promise<TaskTrace[]>
  /** The tallies of these (published) tasks; tasks without tallies are left out. */
  talliesOf(taskIds: string[]): Promise<StoredTallies[]>
  saveTallies(rows: { taskId: string; tallies: TallyInput }[], actor: Actor): Promise<WriteResult<number>>
  effectiveLabels(): Promise<EffectiveLabel[]>

  queuePage(query: QueueQuery): Promise<QueuePage>
  /** Keyset page of the same filter in task-id order (exports stream through it). */
  filteredTasks(filter: TaskFilter, afterTaskId: string | null, limit: number): Promise<TaskRow[]>
  /** Live labels of the next `limit` tasks the filter selects (task-id, then recording order). */
  filteredLabels(filter: TaskFilter, afterTaskId: string | null, limit: number): Promise<{ rows: LabelRecord[]; lastTaskId: string | null }>
  facets(): Promise<Facets>
  taskDetail(taskId: string): Promise<TaskDetailRecord>
  drawUnlabeled(input: DrawInput): Promise<DrawResult>

  reserveTask(taskId: string, actor: Actor, ttlMs: number): Promise<WriteResult<ReserveResult>>
  releaseTask(taskId: string, actor: Actor): Promise<WriteResult<boolean>>
  recentLabels(limit: number): Promise<RecentLabel[]>
  /** Appends labels of a file (and publishes its import record) in one transaction. */
  importLabels(input: ImportLabelsInput, actor: Actor): Promise<WriteResult<ImportRecord>>
  listImports(limit: number): Promise<ImportRecord[]>

  listFits(limit: number): Promise<FitSummary[]>
  getFit(fitId: string): Promise<FitRecord>
  /** The fit whose decisions are current (newest decided), or null. */
  currentFit(): Promise<FitRecord | null>
  /** Makes an earlier fit current again: a new fit copying its content and decisions. */
  rollbackFit(fitId: string, actor: Actor): Promise<WriteResult<FitRecord>>
}
