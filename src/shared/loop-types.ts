/**
 * Result types of the operating loop's calls. JSON only: ISO-8601 UTC strings, `null`
 * never `undefined`. Posteriors and weights are objects keyed by candidate / seat id; arrays
 * follow the task's candidate order or the round order.
 */
import type { JsonValue } from './json'
import type { BoundKind, BudgetSetting } from './loop-schemas'

import type { DecisionKind, LabelSource, TaskState } from './vocabularies'

export type { LabelSource, TaskState } from './vocabularies'

export interface LabelView {
  id: string
  taskId: string
  /** null: an undo marker (it supersedes the label it undid). */
  label: string | null
  source: LabelSource
  reviewer: string
  at: string
  note: string | null
  supersedes: string | null
  adjudicated: boolean
}

export interface Reservation {
  taskId: string
  reviewer: string
  sessionId: string
  expiresAt: string
}

export interface QueueRow {
  taskId: string
  question: string | null
  group: string | null
  candidates: string[]
  createdAt: string
  /** Pass as `expectedVersion` when resolving from the row. */
  version: number
  /** Moves in the trace. */
  moves: number
  state: TaskState | null
  decision: DecisionKind | null
  spotCheck: boolean
  /** The human label, else the acted answer or the engine's best guess. */
  answer: string | null
  posterior: Record<string, number> | null
  stopRound: number | null
  gap: number | null
  bound: (number | null)[] | null
  /** 1 − the social state's top share at the last round. */
  disagreement: number | null
  label: { labelId: string; label: string; source: LabelSource; reviewer: string; at: string } | null
  reservedBy: { reviewer: string; sessionId: string; expiresAt: string } | null
  /** Flags on the task ("can't decide", with a reason): a flag is not a label; the task keeps its state. */
  flags: number
}

export interface QueuePageResult {
  rows: QueueRow[]
  /** Rows matching the filter (all pages). */
  total: number
  offset: number
  limit: number
  fitId: string | null
}

export interface QueueFacets {
  groups: { group: string | null; count: number }[]
  seats: string[]
}

export interface TranscriptMove {
  id: string
  index: number
  round: number
  seat: string
  model: string | null
  force: 'propose' | 'vote' | 'challenge' | 'concede' | 'retract' | 'abstain'
  answer: string | null
  target: string | null
  /** The targeted move, resolved (null without a target). */
  targetSeat: string | null
  targetIndex: number | null
  /** What the move counts as (docs/engine.md §2): sign and candidate, or null for none. */
  endorsement: { sign: 1 | -1; candidate: string } | null
  /** Self-reported, any JSON value as given; null when the move has none. Never read by the engine. */
  confidence: JsonValue | null
  /** LLM output: render as text, never as HTML. */
  text: string | null
}

export interface SeatView {
  seat: string
  model: string | null
  /** §4 reliability r_i (r̄ for a seat unseen in the labels); null for unsupervised methods. */
  reliability: number | null
  /** Endorsements on labeled tasks that r_i rests on; null for unsupervised methods. */
  evidence: number | null
  /** w_i (one-coin) or §5's mean log-ratio (confusion); null for baselines. */
  weight: number | null
  /**
   * The evidence one +1 endorsement of this seat carries in this task: ln(μ_i(K − 1)/(1 − μ_i)) at
   * the task's K (docs/engine.md §3's one-coin log-likelihood ratio); null without a one-coin μ_i.
   */
  endorsementEvidence: number | null
  /** Called adversarial only when r_i < 1/K (docs/engine.md §4). */
  adversarial: boolean
  seen: boolean
  /** Leave-one-seat-out: the posterior without this seat, and its total-variation shift. */
  influence: { posterior: Record<string, number>; shift: number }
}

export interface RoundView {
  round: number
  posterior: Record<string, number>
  social: Record<string, number>
  answer: string
  /** L_t and its k (null when unknown). */
  bound: number | null
  k: number | null
}

export interface DecisionView {
  fitId: string
  decision: DecisionKind
  spotCheck: boolean
  answer: string | null
  stopRound: number | null
  gap: number | null
  /** 1 − α: the bound a round must reach to act; null when α is unknown. */
  threshold: number | null
  /** `n`: the neighbourhood's size (binomial bound, ties at the radius included); absent when the fit did not report it. */
  why: { round: number; k: number; n?: number; qhat: number; bias: number; conc: number } | null
  reason: string | null
  decidedAt: string
}

export interface Verdict {
  fitId: string
  method: string
  posterior: Record<string, number>
  /** The engine's answer on the whole trace (§6 tie rule). */
  answer: string
  seats: SeatView[]
  rounds: RoundView[]
  decision: DecisionView | null
  /** The decision under the fit before the current one (the console says "back in the queue"). */
  previous: { fitId: string; decision: DecisionKind } | null
}

export interface TaskDetail {
  task: { id: string; question: string | null; group: string | null; candidates: string[]; createdAt: string; version: number; importFile: string }
  state: TaskState | null
  /** Hidden truth from the trace: shown only once the task has a human label. */
  gold: string | null
  moves: TranscriptMove[]
  /** null while blind (Calibrate hides the engine's verdict until the task is labeled), or before any fit. */
  verdict: Verdict | null
  blind: boolean
  labels: LabelView[]
  labelLog: LabelView[]
  reservation: Reservation | null
  /** Held by another session: a resolve is still possible but the console should say so. */
  reservedByOther: boolean
  /** Who flagged the task and why, oldest first (only the caller's own while the task is blind or sealed for them). */
  flags: FlagView[]
}

/** A flag: "can't decide", with the reason. */
export interface FlagView {
  id: string
  taskId: string
  reviewer: string
  reason: string
  at: string
}

export interface ReserveResult {
  mine: Reservation | null
  heldBy: Reservation | null
}

export interface ResolveResult {
  labelId: string
  taskId: string
  version: number
  /** A background refit is scheduled (debounced); `fit-landed` follows. */
  refitScheduled: boolean
  /**
   * The source stored: a `random` label from a reviewer who had labeled the task before (and so
   * has seen its verdict) is stored as `escalation` — it leaves the calibration set.
   */
  source: LabelSource
}

/** An undo: the marker written, its task's new version. */
export type UndoResult = Omit<ResolveResult, 'source'>

export type RecentLabel = LabelView & { question: string | null; live: boolean }

/** One of the caller's own labels (the history panel): its task's version now, and whether the task has moved on since. */
export type HistoryLabel = RecentLabel & {
  taskVersion: number
  /** A later row of the task that is not this label's own undo or replacement (another reviewer's label, a ruling); null: none. */
  movedOn: { id: string; reviewer: string; label: string | null; adjudicated: boolean; at: string } | null
}

/** What `labels.undoLast` did: the label it undid, or nothing (no live label of that source). */
export type UndoLastResult = { undone: null } | { undone: HistoryLabel; labelId: string; taskId: string; version: number; refitScheduled: boolean }

export interface DrawResult {
  taskId: string | null
  /** Unlabeled tasks left to draw from. */
  unlabeled: number
  /** Tasks with a live `random` label so far (the calibration set's size; one task may hold several reviewers' labels). */
  randomLabels: number
}

export interface ImportProblem {
  file: string
  line: number
  task: string | null
  move: string | null
  rule: string
  message: string
}

export interface ImportSummary {
  status: 'imported' | 'already-imported' | 'rejected'
  importId: string | null
  jobId: string
  file: string
  kind: 'traces' | 'rounds' | 'csv' | 'labels'
  sha256: string
  /** Tasks written, tasks already present with the same content, moves, seats, labels. */
  tasks: number
  skipped: number
  moves: number
  seats: number
  labels: number
  /** Lines rejected (with --skip-invalid) or the reasons the file was refused (capped at 1,000). */
  errors: ImportProblem[]
  errorCount: number
}

export interface ImportRecordView {
  id: string
  fileName: string
  sha256: string
  kind: string
  createdAt: string
  publishedAt: string | null
  createdBy: string
  counts: { tasks: number; skipped: number; moves: number; seats: number; labels: number }
}

export interface FitSummary {
  id: string
  createdAt: string
  method: string
  /** The concentration bound the fit ran with (docs/engine.md §8.7); fits made before the setting ran Hoeffding's. */
  bound: BoundKind
  hyperparameters: Record<string, number>
  metrics: Record<string, unknown> | null
  parentFitId: string | null
  decidedAt: string | null
  decisionCount: number
  current: boolean
}

export interface FitSeat {
  seat: string
  model: string | null
  reliability: number | null
  mu: number | null
  weight: number | null
  seen: boolean
  adversarial: boolean
  /** `noTimeOrder` (docs/engine.md §9): absent in fits stored before it was reported. */
  drift: { recent: number; rest: number; diff: number; floor: number; flagged: boolean; noTimeOrder?: boolean } | null
}

export interface FitDetail extends FitSummary {
  seats: FitSeat[]
  certificate: Record<string, unknown> | null
  budget: BudgetSetting | null
}

export interface RefitStatus {
  running: boolean
  /** When the debounced background refit will start; null when none is pending. */
  scheduledFor: string | null
  lastError: string | null
  currentFitId: string | null
  /** Labels written since the current fit was made (a refit would change something). */
  stale: boolean
}

/** A fit's tasks as they stand: acted, deferred (the queue) and both (those without a human label). */
export interface DecidedShare {
  undecided: number
  acted: number
  /** The queue: deferred tasks without a human label. */
  queue: number
}

/**
 * What saving the engine settings would do, read from the current fit's stored bounds.
 * Only an absolute β (and ε_act) can be answered so: any change the bounds depend on
 * needs a refit, and `needsRefit` names it.
 */
export interface BudgetWhatIf {
  fitId: string | null
  /** The settings whose change the stored bounds cannot answer (as Settings names them); empty when they can. */
  needsRefit: string[]
  /** Why there is nothing to compare with (no fit yet, no certificate); null when there is. */
  unavailable: string | null
  /** The current fit's tasks now (labels since it left out); null when unavailable. */
  current: DecidedShare | null
  /**
   * Under the draft settings; null when a refit is needed, nothing is available, or the draft keeps
   * the fit's own λ budget with nothing else the bounds depend on changed (then it is `current`).
   */
  proposed: (DecidedShare & {
    beta: number
    alpha: number
    /** 1 − α': the bound an acted task reaches. */
    threshold: number
    /** Σ over the acted tasks of 1 − q̂ at their stop round (an upper bound when `boundedTerms` > 0). */
    expectedWrong: number
    /** Acted tasks whose q̂ at the stop round the fit did not store: 1 − L_t stands in, never smaller. */
    boundedTerms: number
  }) | null
}

/** One fit's decisions when it was made: what a refit summary compares. */
export interface FitShare {
  fitId: string
  createdAt: string
  decided: number
  acted: number
  deferred: number
}

/** What a fit changed against the decided fit before it. */
export interface RefitChange {
  before: FitShare | null
  after: FitShare
  /** Live labels recorded since the previous fit was made; null without one. */
  labelsSince: number | null
}

export interface ExportResult {
  what: 'decisions' | 'labels' | 'flags'
  format: 'jsonl' | 'csv'
  rows: number
  fileName: string
  path: string | null
  /** The file's text when no path was given. */
  content: string | null
}

export interface DemoStatus {
  demo: boolean
  createdAt: string | null
  seed: number | null
}

export interface StartEmptyResult {
  dbLocation: string
  /** Where the demo database was moved (kept, not deleted). */
  demoMovedTo: string
}

export interface AuditEntryView {
  seq: number
  at: string
  reviewer: string
  shell: string
  action: string
  target: string | null
  details: Record<string, unknown>
}

/**
 * Set when a database made by an older version was first opened by this one (docs/engine.md §10): the
 * engine settings it never stored were written with the defaults it ran under, so its behaviour did
 * not change. Settings shows it until dismissed.
 */
export interface DefaultsNotice {
  /** When the old defaults were written. */
  at: string
  /** Each engine setting written (its name without `engine.`) with the old default it keeps. */
  kept: Record<string, unknown>
}
