/** The audit: the log of every write (`audit.tail`) and the Audit screen's summary (`audit.summary`). */
import { z } from 'zod'
import type { AuditSummary } from './audit-summary'
import { command, defineCalls, noArgs, query, returns } from './call'

export interface AuditEntryView {
  seq: number
  at: string
  reviewer: string
  shell: string
  action: string
  target: string | null
  details: Record<string, unknown>
}

/** The audit as one self-contained HTML file (the `arbiter report` file), for a download. */
export interface AuditReport {
  fileName: string
  content: string
}

export const auditCalls = defineCalls({
  'audit.tail': query(z.object({ limit: z.number().int().min(1).max(1000).default(100) }).strict(), returns<AuditEntryView[]>(), ['audit']),
  'audit.summary': query(noArgs, returns<AuditSummary>(), ['labels', 'decisions', 'fits']),
  // A download, run when asked (as `export.run`), never cached or refreshed as a query.
  'audit.report': command(noArgs, returns<AuditReport>())
})
