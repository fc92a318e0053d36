/**
 * The audit's part of the store contract (issue #6, Audit): read-only aggregates the Audit
 * screen and `arbiter report` need and no other operation gives. Same rules as types.ts.
 */
import type { LabelSource } from './types'

/** Labels one reviewer gave from one source: `live` count, and `superseded` (undone or replaced). */
export type ReviewerLabelCount = {
  reviewer: string
  source: LabelSource
  live: number
  superseded: number
}

export interface AuditStore {
  /** Every label row with a label (undo markers excluded), counted per reviewer and source, by reviewer then source. */
  labelCounts(): Promise<ReviewerLabelCount[]>
}
