/**
 * The store contract (DESIGN.md, "store" and "Store neutrality"): ONE async interface of atomic
 * operations. Each operation is one transaction inside the backend, so callers never hold a
 * transaction open across an `await`. Nothing here names SQLite: ids are TEXT, times are ISO-8601
 * UTC strings, absent values are `null` (never `undefined`), and a PostgreSQL backend can
 * implement the same interface.
 */
import type { Force } from '../../shared/trace'
import type { JsonObject, JsonValue } from './json'
import type { LoopStore, TallyInput } from './types-loop'
import type { AuditStore } from './types-audit'
import type { TeamStore } from './types-team'
import type { PreparedTask } from './prepared-task'
import type { DecisionPage } from './decision-page'

export type { JsonObject, JsonPrimitive, JsonValue } from './json'
export * from './types-loop'
export type * from './types-audit'
export type * from './types-team'

import type { BoundKind, Counts } from '../../shared/api'
import type { DecisionKind, ImportState, LabelSource, Shell, Topic } from '../../shared/vocabularies'

/** The vocabularies (src/shared/vocabularies.ts): one definition each, shared with the call schemas. */
export {
  DECISION_KINDS, IMPORT_STATES, LABEL_SOURCES, SHELLS, TOPICS,
  type DecisionKind, type ImportState, type LabelSource, type Shell, type Topic
} from '../../shared/vocabularies'

/** Who performs a write; recorded in the audit row written by the same transaction. */
export type Actor = { reviewer: string; sessionId: string; shell: Shell }

export type WriteResult<T> = { value: T; topics: Topic[] }

export { StoreError, isStoreError, type StoreErrorCode } from './store-error'

// ── status ──────────────────────────────────────────────────────────────────────────────────

/** What opening the store did to the schema (null when nothing was pending). */
export type MigrationReport = {
  from: number
  to: number
  applied: number[]
  /** The pre-migration copy of an existing database; null for a new one. */
  backupPath: string | null
}

export type StoreInfo = {
  backend: 'sqlite' | 'postgres'
  /** File path (sqlite) or a password-free connection URL (postgres). */
  path: string
  schemaVersion: number
  readonly: boolean
  migration: MigrationReport | null
}

/**
 * Visible data only (rows of published imports). Decision counts are over the newest fit whose
 * decisions have been saved; all 0 when there is none.
 */
export type StoreCounts = Counts

export type IntegrityReport = { ok: boolean; messages: string[] }

/** Merge-patch semantics (RFC 7396, one level): a `null` value removes the key. */
export type SettingsPatch = Record<string, JsonValue>
export type Settings = Record<string, JsonValue>

// ── imports ─────────────────────────────────────────────────────────────────────────────────

export const IMPORT_KINDS = ['traces', 'crowd-csv', 'labels', 'demo'] as const
export type ImportKind = (typeof IMPORT_KINDS)[number]

/** Running totals of what an import wrote (kept per batch, so publishing stays one small write). */
/** `labels`: labels the import recorded (a label file, or gold with `--gold-as`). */
export type ImportCounts = { tasks: number; skipped: number; moves: number; seats: number; labels: number }

export type ImportRecord = {
  id: string
  fileName: string
  sha256: string
  kind: ImportKind
  state: ImportState
  createdAt: string
  publishedAt: string | null
  counts: ImportCounts
  /** The reviewer who began it (beginImport's actor). */
  createdBy: string
}

export type BeginImportInput = { fileName: string; sha256: string; kind: ImportKind }

export type SeatInput = { id: string; model: string | null }

export type MoveInput = {
  id: string
  round: number
  seat: string
  force: Force
  answer: string | null
  target: string | null
  /** Any JSON value; null when the move has none (a `null` in the file reads back as none). */
  confidence: JsonValue | null
  text: string | null
  /** Unknown fields of the move, kept for round-tripping. */
  raw: JsonObject | null
}

export type TaskInput = {
  id: string
  question: string | null
  candidates: string[]
  /** Hidden truth (ENGINE.md §10): stored, never returned as a label. */
  gold: string | null
  group: string | null
  /** The task's payload as read (unknown fields included), kept for round-tripping. */
  raw: JsonObject
  /** Hash of the task's content computed by io; decides skip (same) vs. error (changed). */
  contentSha256: string
  /** In file order; a move's position is its index here. */
  moves: MoveInput[]
  seats: SeatInput[]
  /** The engine's tallies of `moves`, stored with the task (absent: backfilled before a fit). */
  tallies?: TallyInput | null
}

export type ImportBatch = {
  /** Tasks as read, or already validated and serialised by `prepareTask` (see prepared-task.ts). */
  tasks: (TaskInput | PreparedTask)[]
  /** Seats declared outside any task (e.g. a file header); seats of tasks and moves are implied. */
  seats?: SeatInput[]
}

export type ImportBatchResult = { written: number; skipped: number; moves: number; seats: number }

export type PublishOptions = { goldAs?: { source: LabelSource; reviewer: string } | null }

// ── labels ──────────────────────────────────────────────────────────────────────────────────

/**
 * One row of the append-only label log. An undo is a row with `label: null` whose `supersedes`
 * names the undone label (an "undo marker"); a replacement is a row with a label AND `supersedes`.
 * A label is live when it has a label and no row supersedes it.
 */
export type LabelRecord = {
  id: string
  taskId: string
  label: string | null
  source: LabelSource
  reviewer: string
  at: string
  note: string | null
  supersedes: string | null
  adjudicated: boolean
  sessionId: string
}

export type RecordLabelInput = {
  taskId: string
  label: string
  source: LabelSource
  reviewer: string
  note?: string | null
  /** The task version the reviewer saw; a mismatch is a `conflict`. */
  expectedVersion: number
  adjudicated?: boolean
  /** A live label of the same task that this one replaces (atomic undo + record). */
  supersedes?: string | null
  /** When the label was given (label files carry it); default now. */
  at?: string | null
}

export type UndoLabelInput = { labelId: string; expectedVersion: number }

/** `labelId` is the row written (the new label, or the undo marker). */
export type LabelWriteResult = { labelId: string; taskId: string; version: number }

/** `details` of the `conflict` thrown on a stale `expectedVersion`. */
export type VersionConflictDetails = {
  taskId: string
  expectedVersion: number
  currentVersion: number
  latestLiveLabel: LabelRecord | null
}

export type TaskSummary = {
  id: string
  question: string | null
  candidates: string[]
  group: string | null
  version: number
  liveLabels: LabelRecord[]
}

// ── fits and decisions ──────────────────────────────────────────────────────────────────────

export type FitInput = {
  method: string
  hyperparameters: JsonObject
  /** Seat id → reliability (and whatever per-seat figures the engine reports). */
  reliabilities: JsonObject
  certificate: JsonObject | null
  metrics: JsonObject | null
  /** The fit this one derives from (e.g. a decide run under a fitted model); null for a root. */
  parentFitId: string | null
  /** The concentration bound its certificate ran with (ENGINE.md §8.7); left out, none is stored and it reads as Hoeffding's. */
  bound?: BoundKind
}

export type FitRecord = Omit<FitInput, 'bound'> & {
  /** The stored bound; `hoeffding` for a fit that stored none (every fit made before schema 6). */
  bound: BoundKind
  id: string
  createdAt: string
  /** Set once, when the fit's decisions are saved. */
  decidedAt: string | null
  /** Its decisions: all, deferred, spot-checked (the last two null for fits decided before they were kept). */
  decisionCount: number
  deferredCount: number | null
  spotCount: number | null
}

export type DecisionInput = {
  taskId: string
  decision: DecisionKind
  spotCheck: boolean
  /** The acted answer, or the engine's best guess while deferred; a candidate or null. */
  answer: string | null
  posterior: Record<string, number>
  stopRound: number | null
  gap: number | null
  bound: (number | null)[] | null
  disagreement: number | null
  /** The k behind each L_t (certificate, ENGINE.md §8.9). */
  k?: (number | null)[] | null
  /** The gap decomposition at the best round (finite numbers). */
  why?: DecisionWhy | null
  /** Why the task was deferred without its bound deciding (e.g. "insufficient evidence"). */
  reason?: string | null
}

/**
 * Why a bound fell short: the certificate's decomposition at the task's best round (ENGINE.md §8.9).
 * `n` (the binomial bound's neighbourhood size, ties at the radius included) only when the engine
 * reported it: Hoeffding fits, and fits made before schema 6, have none.
 */
export type DecisionWhy = { round: number; k: number; n?: number; qhat: number; bias: number; conc: number }

export type SaveDecisionsResult = { fitId: string; count: number; decidedAt: string }

// ── audit ───────────────────────────────────────────────────────────────────────────────────

export type AuditEntry = {
  /** Position in the log (strictly increasing). */
  seq: number
  at: string
  reviewer: string
  sessionId: string
  shell: Shell
  action: string
  target: string | null
  details: JsonObject
}

// ── change feed ─────────────────────────────────────────────────────────────────────────────

/** What a store's change feed reports (`Store.listenChanges`). */
export interface ChangeFeedEvents {
  /** The feed is live: every later commit of another connection will be reported. */
  up(): void
  /** Another connection committed a write that changed these topics. */
  change(topics: Topic[]): void
  /** The feed is lost (reported once, then it is finished): later commits go unreported. */
  down(error: unknown): void
}

// ── the interface ───────────────────────────────────────────────────────────────────────────

/**
 * Every write that changes visible state appends exactly one audit row in its own transaction.
 * The staging steps of an import (begin, batches, abandon) touch only invisible rows and write no
 * audit row, so a failed import leaves no trace (FORMATS.md, `import`); its publish is audited.
 */
export interface Store extends LoopStore, AuditStore, TeamStore {
  info(): Promise<StoreInfo>
  counts(): Promise<StoreCounts>
  /** Changes whenever ANOTHER connection commits; a watcher polls it to emit `changed` events. */
  dataVersion(): Promise<number>
  /**
   * Push notice of other connections' commits where the backend has it (PostgreSQL LISTEN/NOTIFY;
   * absent on SQLite, where the watcher polls `dataVersion`). Returns a stop function.
   */
  listenChanges?(events: ChangeFeedEvents): () => void
  integrityCheck(): Promise<IntegrityReport>

  getSettings(): Promise<Settings>
  setSettings(patch: SettingsPatch, actor: Actor): Promise<WriteResult<Settings>>

  /** Opens a staged (invisible) import. */
  beginImport(input: BeginImportInput, actor: Actor): Promise<WriteResult<ImportRecord>>
  /** One transaction per batch; a task already present with the same content is skipped. */
  writeImportBatch(importId: string, batch: ImportBatch): Promise<WriteResult<ImportBatchResult>>
  /**
   * Makes every row of the import visible by flipping one row. With `goldAs`, the gold of the
   * tasks this import wrote is recorded as labels of that source and reviewer, in the same
   * transaction (ENGINE.md §10, `--gold-as`).
   */
  publishImport(importId: string, actor: Actor, opts?: PublishOptions): Promise<WriteResult<ImportRecord>>
  /** Marks a staged import abandoned; its rows stay invisible and are swept at the next open. */
  abandonImport(importId: string): Promise<WriteResult<ImportRecord>>
  /** The published (else staged) import of a file with this sha256; abandoned ones are ignored. */
  findImportBySha(sha256: string): Promise<ImportRecord | null>

  recordLabel(input: RecordLabelInput, actor: Actor): Promise<WriteResult<LabelWriteResult>>
  undoLabel(input: UndoLabelInput, actor: Actor): Promise<WriteResult<LabelWriteResult>>
  /** In recording order. */
  liveLabels(taskId: string): Promise<LabelRecord[]>
  getTaskSummary(taskId: string): Promise<TaskSummary>

  saveFit(input: FitInput, actor: Actor): Promise<WriteResult<FitRecord>>
  /** All decisions of one fit, once (a re-decide is a new fit with `parentFitId`). */
  saveDecisions(fitId: string, rows: DecisionInput[], actor: Actor): Promise<WriteResult<SaveDecisionsResult>>
  /**
   * The same in pages, for a decide too large to hold: each page is one transaction, invisible
   * (the fit is not current) until `finishDecisions` makes all of them current at once.
   */
  appendDecisions(fitId: string, rows: DecisionInput[]): Promise<WriteResult<number>>
  /** The same, the page in columns (decision-page.ts): how a decide hands over a million rows. */
  appendDecisionPage(fitId: string, page: DecisionPage): Promise<WriteResult<number>>
  finishDecisions(fitId: string, actor: Actor): Promise<WriteResult<SaveDecisionsResult>>
  /** The newest fit, decided or not. */
  latestFit(): Promise<FitRecord | null>

  /** The last `limit` audit rows, oldest first. */
  auditTail(limit: number): Promise<AuditEntry[]>
  close(): Promise<void>
}
