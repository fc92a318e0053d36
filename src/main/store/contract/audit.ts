/**
 * The audit log, and the read-only aggregates the Audit screen and `arbiter report` need and no
 * other operation gives.
 */
import type { LabelSource, Shell } from '../../../shared/vocabularies'
import type { JsonObject } from './json'

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

/** Labels one reviewer gave from one source: `live` count, and `superseded` (undone or replaced). */
export type ReviewerLabelCount = {
  reviewer: string
  source: LabelSource
  live: number
  superseded: number
}

export interface AuditStore {
  /** The last `limit` audit rows, oldest first. */
  auditTail(limit: number): Promise<AuditEntry[]>
  /** Every label row with a label (undo markers excluded), counted per reviewer and source, by reviewer then source. */
  labelCounts(): Promise<ReviewerLabelCount[]>
}
