/** Audit log rows → AuditEntry, shared by both backends. */
import { parseJsonObject } from './rows'
import type { AuditEntry, Shell } from './contract'

export type AuditRow = {
  seq: number
  at: string
  reviewer: string
  session_id: string
  shell: Shell
  action: string
  target: string | null
  details: string
}

export function toAuditEntry(r: AuditRow): AuditEntry {
  return {
    seq: r.seq,
    at: r.at,
    reviewer: r.reviewer,
    sessionId: r.session_id,
    shell: r.shell,
    action: r.action,
    target: r.target,
    details: parseJsonObject(r.details)
  }
}

/** The audit action of a recorded label: an adjudicator's ruling is its own action in the log. */
export function labelAction(adjudicated: boolean): 'label.adjudicate' | 'label.record' {
  return adjudicated ? 'label.adjudicate' : 'label.record'
}
