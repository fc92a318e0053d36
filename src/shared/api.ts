/**
 * The one contract between the renderer and the main side (docs/architecture.md, "API envelope").
 * Every call the renderer can make is listed here with the zod schema of its single argument
 * object and its result type; the IPC handlers, the preload bridge, the web host and the
 * renderer client are all derived from this map, so there is no second list to drift.
 */
import { z } from 'zod'
import type { ApiMethod } from './api-methods'
import type { AuditSummary } from './audit-types'
import type { Envelope } from './errors'
import type { ApiEvent } from './events'
import { loopInputSchemas, type EngineSettings } from './loop-schemas'
import type * as L from './loop-types'
import { teamInputSchemas, type TeamSettings } from './team-schemas'
import type { AdjudicationList } from './team-types'
import type { Shell } from './vocabularies'
import { uploadInputSchemas, type PickedFile, type UploadResult } from './upload'

export * from './loop-schemas'
export type * from './loop-types'
export type * from './audit-types'
export * from './team-schemas'
export type * from './team-types'
export * from './upload'

export const THEMES = ['system', 'light', 'dark'] as const

/** User settings with their defaults; later issues add engine settings here. */
export const settingsSchema = z.object({
  reviewer: z.string().trim().min(1).max(80),
  theme: z.enum(THEMES)
})
export type Settings = z.infer<typeof settingsSchema>
export const DEFAULT_SETTINGS: Settings = { reviewer: 'reviewer', theme: 'system' }

const noArgs = z.object({}).strict()

export const apiInputSchemas = {
  'app.info': noArgs,
  'app.counts': noArgs,
  'settings.get': noArgs,
  'settings.update': z.object({ patch: settingsSchema.partial().strict() }).strict(),
  'db.checkIntegrity': noArgs,
  'audit.summary': noArgs,
  ...loopInputSchemas,
  ...teamInputSchemas,
  ...uploadInputSchemas
} satisfies Record<ApiMethod, z.ZodType>

export type { Shell } from './vocabularies'

export interface AppInfo {
  version: string
  shell: Shell
  backend: 'sqlite' | 'postgres'
  /** Where the data lives (a file path, or a redacted server URL). */
  location: string
  schemaVersion: number
  /** The caller's reviewer name is fixed by their login link (Settings cannot change it). */
  reviewerFromToken: boolean
}

export interface Counts {
  tasks: number
  seats: number
  moves: number
  /** Live labels (superseded ones excluded). */
  labels: number
  labeledTasks: number
  deferred: number
  acted: number
  spotCheck: number
  fits: number
}

export interface IntegrityReport {
  ok: boolean
  messages: string[]
  checkedAt: string
  jobId: string
}

export interface ApiResults {
  'app.info': AppInfo
  'app.counts': Counts
  'settings.get': Settings
  'settings.update': Settings
  'db.checkIntegrity': IntegrityReport
  'engine.getSettings': EngineSettings
  'engine.updateSettings': EngineSettings
  'engine.defaultsNotice': L.DefaultsNotice | null
  'engine.dismissDefaultsNotice': { dismissed: boolean }
  'queue.page': L.QueuePageResult
  'queue.facets': L.QueueFacets
  'task.detail': L.TaskDetail
  'task.reserve': L.ReserveResult
  'task.release': { released: boolean }
  /** The hold an adjudicator ended, or null when the task had none. */
  'task.releaseHold': { released: L.Reservation | null }
  'labels.resolve': L.ResolveResult
  'labels.undo': L.UndoResult
  'labels.recent': L.RecentLabel[]
  'labels.history': L.HistoryLabel[]
  'labels.undoLast': L.UndoLastResult
  'flags.add': L.FlagView
  'calibrate.draw': L.DrawResult
  'imports.upload': UploadResult
  /** null: the user closed the dialog without choosing a file. */
  'imports.pick': PickedFile | null
  'imports.run': L.ImportSummary
  'imports.list': L.ImportRecordView[]
  'fits.run': L.FitSummary
  'fits.decide': L.FitSummary
  'fits.list': L.FitSummary[]
  'fits.get': L.FitDetail
  'fits.rollback': L.FitSummary
  'fits.status': L.RefitStatus
  'fits.whatIf': L.BudgetWhatIf
  'fits.change': L.RefitChange
  'export.run': L.ExportResult
  'demo.status': L.DemoStatus
  'demo.startEmpty': L.StartEmptyResult
  'audit.tail': L.AuditEntryView[]
  'audit.summary': AuditSummary
  'team.getSettings': TeamSettings
  'team.updateSettings': TeamSettings
  'adjudicate.list': AdjudicationList
  'adjudicate.resolve': L.ResolveResult
}

// Compile-time check: API_METHODS, the schemas and the results name the same calls.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never
export const contractIsComplete: Same<keyof ApiResults, ApiMethod> & Same<keyof typeof apiInputSchemas, ApiMethod> = true

export type ApiArgs<M extends ApiMethod> = z.input<(typeof apiInputSchemas)[M]>
export type ApiParsedArgs<M extends ApiMethod> = z.output<(typeof apiInputSchemas)[M]>

/** The renderer's view: every call resolves to its result or throws an ApiError. */
export type ConsoleApi = { [M in ApiMethod]: (args: ApiArgs<M>) => Promise<ApiResults[M]> }

/** What a bridge (preload over IPC, or HTTP) exposes as `window.api`: envelopes, plus events. */
export type BridgeApi = { [M in ApiMethod]: (args: ApiArgs<M>) => Promise<Envelope<ApiResults[M]>> } & {
  onEvent(listener: (event: ApiEvent) => void): () => void
}

/** Who is calling, as every server handler sees it. */
export interface CallContext {
  sessionId: string
  reviewer: string
  shell: Shell
  /** The reviewer comes from the caller's login token (`serve --reviewer`); the setting cannot change it. */
  reviewerFromToken?: boolean
}

/** The main side's implementation: one handler per call, given parsed args and the context. */
export type ServerHandlers = {
  [M in ApiMethod]: (args: ApiParsedArgs<M>, ctx: CallContext) => Promise<ApiResults[M]>
}
