import type { AuditSummary, BoundKind, BudgetSetting, EngineSettings, ImportSummary } from '../../../shared/api'
import type { CsvDialect } from '../../io'
import type { Actor, FitRecord, LabelSource } from '../../store'

/** One import, as the service, the worker and the CLI hand it to `runImport`. */
export interface ImportRequest {
  /** Where the bytes are (an upload is a temp file). */
  path: string
  /** The name errors and the import record use (the path as the user typed it, or the upload's name). */
  fileName: string
  /** The base name, for the reviewer of `--gold-as` labels (`import:<file>`). */
  displayName: string
  kind: 'auto' | 'traces' | 'rounds' | 'csv' | 'labels'
  skipInvalid: boolean
  goldAs: LabelSource | null
  /** CSV only; `gold` is a path, `goldName` the name its errors use. */
  dialect: CsvDialect
  goldName: string | null
  /**
   * Who imports a label file (the store's ImportLabelsInput): `fromConsole` (the desktop
   * app or a browser) refuses `random` rows; `asCaller` (a per-reviewer login) also refuses rows
   * naming someone else. Absent: the file's rows as they are (the CLI).
   */
  fromConsole?: boolean
  asCaller?: boolean
  /**
   * The database file, when the import may write from a second thread (large trace files: see
   * writer-thread.ts); null or absent writes from this thread.
   */
  target?: { dbLocation: string; nativeBinding: string | null } | null
}

export type ImportOutcome = Omit<ImportSummary, 'jobId'>

/**
 * A re-decide of fit `fitId` under another `budget`, and under `bound` when given (else the fit's
 * own); `copyRows: false` decides every task again (fit/redecide-copy.ts).
 */
export type RedecideRequest = { fitId: string; budget: BudgetSetting; bound?: BoundKind; copyRows?: boolean }

/** Messages between the job runner and its worker thread. Every job opens its own connection. */
interface JobBase {
  dbLocation: string
  nativeBinding: string | null
}

export interface IntegrityJob extends JobBase {
  kind: 'integrity-check'
}

export interface ImportJob extends JobBase {
  kind: 'import'
  request: ImportRequest
  actor: Actor
}

export interface FitJob extends JobBase {
  kind: 'fit'
  settings: EngineSettings
  /** Re-decide the fit with this id under `budget` (null: a fresh fit). */
  redecide: RedecideRequest | null
  actor: Actor
  /** The service's reviewer activity (give-way.ts): the fit waits between pages while reviewers are busy. */
  activity?: SharedArrayBuffer
}

/** The audit summary: nested CV and the act-or-defer splits take seconds. */
export interface AuditJob extends JobBase {
  kind: 'audit'
  settings: EngineSettings
  actor: Actor
}

export type JobRequest = IntegrityJob | ImportJob | FitJob | AuditJob

export interface JobResults {
  'integrity-check': { ok: boolean; messages: string[] }
  import: ImportOutcome
  fit: FitRecord
  audit: AuditSummary
}

export type WorkerMessage =
  | { type: 'progress'; done: number; total: number; message: string | null }
  | { type: 'result'; value: unknown }
  | { type: 'error'; message: string; code: string | null; details: unknown }
