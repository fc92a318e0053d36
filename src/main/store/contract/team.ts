/**
 * Team mode's part of the store contract (several reviewers per task): the tasks that
 * await adjudication, the sealed rule's question "which of these tasks may this reviewer not see
 * others' labels of yet", and the reviewers' votes that agreement is measured on. The label
 * rules themselves are SQL shared by both backends (label-rules.ts).
 */
import type { LabelRecord } from './labels'

export type AdjudicationQuery = {
  /** N, the reviewers per task: a sealed task is adjudicated once N reviewers labeled it. */
  reviewersPerTask: number
  /** Only this task (is it awaiting adjudication?), or null for all. */
  taskId: string | null
  offset: number
  limit: number
}

export type AwaitingTask = {
  taskId: string
  question: string | null
  group: string | null
  candidates: string[]
  version: number
  /** Every live label, in recording order. */
  labels: LabelRecord[]
}

/** In task-id order; `total` counts every task awaiting adjudication. */
export type AdjudicationPage = { rows: AwaitingTask[]; total: number }

export type SealedQuery = { taskIds: string[]; reviewer: string; reviewersPerTask: number }

export type OpenDrawsQuery = { taskIds: string[]; reviewer: string }

/** One reviewer's vote on a task (their latest live, unadjudicated label). */
export type Vote = { taskId: string; reviewer: string; label: string }

export interface TeamStore {
  /** Tasks whose reviewers' votes disagree, no longer sealed, without an adjudicated label. */
  awaitingAdjudication(query: AdjudicationQuery): Promise<AdjudicationPage>
  /**
   * Of these tasks, the ones whose other reviewers' labels `reviewer` must not see yet: still
   * sealed, labeled by someone, not by them. Empty with one reviewer per task.
   */
  sealedTasks(query: SealedQuery): Promise<string[]>
  /**
   * Every vote on the tasks two or more reviewers labeled, by task then reviewer; with
   * `reviewersPerTask` N > 1 not on a task still sealed (its blind labels still owed).
   */
  votes(reviewersPerTask?: number): Promise<Vote[]>
  /**
   * Of these tasks, the ones Calibrate drew for `reviewer` that they have not labeled since: their
   * verdict stays hidden from that reviewer until their blind label is committed.
   */
  openDraws(query: OpenDrawsQuery): Promise<string[]>
}
