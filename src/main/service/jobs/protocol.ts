import type { AuditSummary, BoundKind, BudgetSetting, EngineSettings } from '../../../shared/api'
import type { Actor, FitRecord } from '../../store'
import type { ImportOutcome, ImportRequest } from '../import/types'

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
