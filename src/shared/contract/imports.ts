/**
 * Imports: a file read into the database (traces, rounds, a crowd CSV, labels), from this machine or
 * registered as an upload (sent in slices by the browser, picked in the desktop app's dialog), and the list of past imports.
 */
import { z } from 'zod'
import { LABEL_SOURCES } from '../vocabularies'
import { command, defineCalls, query, returns } from './call'
import { uploadInputSchemas, type PickedFile, type UploadResult } from './upload'

export const IMPORT_KINDS = ['auto', 'traces', 'rounds', 'csv', 'labels'] as const

export const csvDialectSchema = z
  .object({
    columns: z.tuple([z.enum(['task', 'worker', 'label']), z.enum(['task', 'worker', 'label']), z.enum(['task', 'worker', 'label'])]).nullable().default(null),
    delimiter: z.enum(['comma', 'semicolon', 'tab', 'space']).nullable().default(null),
    header: z.boolean().default(true)
  })
  .strict()

/** A file on this machine (CLI) or one registered as an upload: sent by `imports.upload` (browser) or picked by `imports.pick` (desktop). */
export const fileSourceSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('path'), path: z.string().min(1).max(4096) }).strict(),
  z.object({ kind: z.literal('upload'), uploadId: z.string().uuid() }).strict()
])
export type FileSource = z.infer<typeof fileSourceSchema>

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

export const importCalls = defineCalls({
  'imports.upload': command(uploadInputSchemas['imports.upload'], returns<UploadResult>()),
  /** null: the user closed the dialog without choosing a file. */
  'imports.pick': command(uploadInputSchemas['imports.pick'], returns<PickedFile | null>()),
  'imports.run': command(
    z
      .object({
        source: fileSourceSchema,
        kind: z.enum(IMPORT_KINDS).default('auto'),
        skipInvalid: z.boolean().default(false),
        goldAs: z.enum(LABEL_SOURCES).nullable().default(null),
        dialect: csvDialectSchema.default({ columns: null, delimiter: null, header: true }),
        gold: fileSourceSchema.nullable().default(null)
      })
      .strict(),
    returns<ImportSummary>()
  ),
  'imports.list': query(z.object({ limit: z.number().int().min(1).max(500).default(50) }).strict(), returns<ImportRecordView[]>(), ['tasks', 'imports'])
})
