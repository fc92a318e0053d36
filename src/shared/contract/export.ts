/** Export: the filtered tasks' decisions, live labels or flags, as JSONL or CSV. */
import { z } from 'zod'
import { command, defineCalls, returns } from './call'
import { taskFilterSchema } from './queue'

export const EXPORT_FORMATS = ['jsonl', 'csv'] as const
/** What `export` writes: decisions, live labels, or flags (`arbiter.flags/1`) of the filtered tasks. */
export const EXPORT_KINDS = ['decisions', 'labels', 'flags'] as const
export type ExportKind = (typeof EXPORT_KINDS)[number]

export interface ExportResult {
  what: 'decisions' | 'labels' | 'flags'
  format: 'jsonl' | 'csv'
  rows: number
  fileName: string
  path: string | null
  /** The file's text when no path was given. */
  content: string | null
}

export const exportCalls = defineCalls({
  'export.run': command(
    z
      .object({
        what: z.enum(EXPORT_KINDS),
        filter: taskFilterSchema.default({ decision: null, group: null, seat: null, candidate: null, labelSource: null, spotCheck: null, search: null }),
        format: z.enum(EXPORT_FORMATS).default('jsonl'),
        /** Write to this file (desktop, CLI); null: return the content (browser download). */
        path: z.string().min(1).max(4096).nullable().default(null)
      })
      .strict(),
    returns<ExportResult>()
  )
})
