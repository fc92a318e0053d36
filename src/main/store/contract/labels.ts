/** Labels: the append-only label log, one task's summary, the effective label, recent labels. */
import type { CalibrateDrawResult } from '../../../shared/contract/calibrate'
import type { LabelSource } from '../../../shared/vocabularies'
import type { Actor, WriteResult } from './common'

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
  /**
   * A console's resolve: a `random` label only on the actor's login's open, unexpired draw of the
   * task (`calibrateDraw`) from the session it was handed to, else `unauthorized`; and no label
   * takes a task out of the calibration set (ops/calibration-set.ts). The blind draw, not the
   * client, says what enters the calibration set.
   */
  requireDraw?: boolean
}

/**
 * `mayUndoRulings`: the actor is an adjudicator (the team's setting, which the service reads). Only
 * a label's own reviewer undoes it; an adjudicated ruling only an adjudicator.
 */
export type UndoLabelInput = {
  labelId: string
  expectedVersion: number
  mayUndoRulings?: boolean
  /** A console's undo: a blind (`random`) label is not undone but replaced on its draw (ops/calibration-set.ts). */
  keepBlind?: boolean
}

/**
 * Calibrate's draw for the actor's login (ops/draws.ts). `at`: a uniform number in [0, 1) from the OS;
 * `after`: the task the console moves on from (its labeled draw is then closed; any other value keeps it).
 */
export type CalibrateDrawInput = { at: number; spotCheckOnly: boolean; reviewersPerTask: number; skip: boolean; ttlMs: number; after?: string | null }

/** The draw, its expiry (null: nothing drawn), and the login's skips so far and left. */
export type CalibrateDraw = CalibrateDrawResult

/** A login's current Calibrate draw: the session it was handed to, its expiry, the label given on it (null: none yet). */
export type OpenDraw = { reviewer: string; sessionId: string; taskId: string; drawnAt: string; expiresAt: string; labelId: string | null }

/** One login's Calibrate draws, blind labels given on them, and skips (Audit shows them). */
export type DrawCount = { reviewer: string; draws: number; labeled: number; skips: number }

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

/** A label log row with its task's question and whether it is live (the session id the console never sees included). */
export type RecentLabelRecord = LabelRecord & { question: string | null; live: boolean }

/**
 * A later row of the same task that is not this label's own undo or replacement: another
 * reviewer's label, an adjudication, or an undo of someone else's label. Its task has moved on.
 */
export type LaterLabel = { id: string; reviewer: string; label: string | null; adjudicated: boolean; at: string }

/** One of a reviewer's own labels (undo markers excluded), with what became of it and its task. */
export type ReviewerLabel = RecentLabelRecord & {
  /** The task's version now (what an undo of this label must name). */
  taskVersion: number
  /** The newest later row of the task that is not this label's own undo or replacement; null: the task has not moved on. */
  movedOn: LaterLabel | null
}

/** A reviewer's labels, newest first; `source` and `taskId` narrow them, `liveOnly` leaves out undone and replaced ones. */
export type ReviewerLabelsQuery = {
  reviewer: string
  source?: LabelSource | null
  taskId?: string | null
  liveOnly?: boolean
  /** false: leave out the reviewer's rulings (Adjudicate's, not Review's or Calibrate's to undo); absent or null: either. */
  adjudicated?: boolean | null
  limit: number
}

export interface LabelStore {
  recordLabel(input: RecordLabelInput, actor: Actor): Promise<WriteResult<LabelWriteResult>>
  undoLabel(input: UndoLabelInput, actor: Actor): Promise<WriteResult<LabelWriteResult>>
  /** In recording order. */
  liveLabels(taskId: string): Promise<LabelRecord[]>
  getTaskSummary(taskId: string): Promise<TaskSummary>
  /** A reviewer's own labels, newest first (the console's history and undo). */
  reviewerLabels(query: ReviewerLabelsQuery): Promise<ReviewerLabel[]>
  recentLabels(limit: number): Promise<RecentLabelRecord[]>
  /**
   * Live labels recorded after `since` (an ISO time, exclusive) and not after `until` (null: up to
   * now): what a refit learned since the fit before it.
   */
  countLabelsSince(since: string, until: string | null): Promise<number>
  /**
   * Every task's effective label. With `reviewersPerTask` N > 1, a task whose blind labels are still
   * owed (sealed: fewer than N reviewers, all blind, none adjudicated) has none yet: what fits and
   * audits learn from must not move on a blind label some reviewer owed on that task has not given.
   */
  effectiveLabels(reviewersPerTask?: number): Promise<EffectiveLabel[]>
  /**
   * Makes `taskId` the actor's login's open draw, for the actor's session, for `ttlMs`; true when
   * it was not already. Calibrate's own draw is `calibrateDraw`; this is a test's way to draw a
   * task of its choosing (nothing of the console calls it).
   */
  recordDraw(taskId: string, actor: Actor, ttlMs?: number): Promise<WriteResult<boolean>>
  /** Calibrate's draw: the open one while it lives, else a new uniform one; `skip` counts against a cap. */
  calibrateDraw(input: CalibrateDrawInput, actor: Actor): Promise<WriteResult<CalibrateDraw>>
  drawCounts(): Promise<DrawCount[]>
  /** The login's current draw (open or labeled), or null. */
  openDrawOf(reviewer: string): Promise<OpenDraw | null>
}
