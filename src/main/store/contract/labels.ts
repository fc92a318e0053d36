/** Labels: the append-only label log, one task's summary, the effective label, recent labels. */
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

export type RecentLabel = LabelRecord & { question: string | null; live: boolean }

export interface LabelStore {
  recordLabel(input: RecordLabelInput, actor: Actor): Promise<WriteResult<LabelWriteResult>>
  undoLabel(input: UndoLabelInput, actor: Actor): Promise<WriteResult<LabelWriteResult>>
  /** In recording order. */
  liveLabels(taskId: string): Promise<LabelRecord[]>
  getTaskSummary(taskId: string): Promise<TaskSummary>
  recentLabels(limit: number): Promise<RecentLabel[]>
  /**
   * Live labels recorded after `since` (an ISO time, exclusive) and not after `until` (null: up to
   * now): what a refit learned since the fit before it.
   */
  countLabelsSince(since: string, until: string | null): Promise<number>
  effectiveLabels(): Promise<EffectiveLabel[]>
}
