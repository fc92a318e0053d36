/**
 * The one contract between the renderer and the main side (docs/architecture.md, "API envelope"),
 * assembled from its domains in contract/: every call the renderer can make, with the zod schema of
 * its single argument object, its result type and, for a query, the topics its answer depends on.
 * The IPC handlers, the preload bridge, the web host, the renderer client and the renderer's live
 * updates are all derived from this map, so there is no second list to drift.
 */
import type { z } from 'zod'
import type { ApiMethod } from './api-methods'
import { appCalls } from './contract/app'
import { auditCalls } from './contract/audit'
import { calibrateCalls } from './contract/calibrate'
import type { Call, ResultOf } from './contract/call'
import { demoCalls } from './contract/demo'
import { exportCalls } from './contract/export'
import { fitCalls } from './contract/fits'
import { flagCalls } from './contract/flags'
import { importCalls } from './contract/imports'
import { labelCalls } from './contract/labels'
import { queueCalls } from './contract/queue'
import { settingsCalls } from './contract/settings'
import { taskCalls } from './contract/task'
import { teamCalls } from './contract/team'
import type { Envelope } from './errors'
import type { ApiEvent } from './events'
import type { Shell } from './vocabularies'

export * from './contract/app'
export * from './contract/settings'
export * from './contract/queue'
export * from './contract/task'
export type * from './contract/task-verdict'
export * from './contract/labels'
export * from './contract/calibrate'
export * from './contract/flags'
export * from './contract/imports'
export * from './contract/upload'
export * from './contract/fits'
export type * from './contract/fits-what-if'
export * from './contract/export'
export * from './contract/demo'
export * from './contract/audit'
export type * from './contract/audit-summary'
export * from './contract/team'
export { LABEL_SOURCES, QUEUE_SORTS, TASK_STATES, type LabelSource, type Shell, type TaskState } from './vocabularies'

export const API_CALLS = {
  ...appCalls,
  ...settingsCalls,
  ...queueCalls,
  ...taskCalls,
  ...labelCalls,
  ...calibrateCalls,
  ...flagCalls,
  ...importCalls,
  ...fitCalls,
  ...exportCalls,
  ...demoCalls,
  ...auditCalls,
  ...teamCalls
} satisfies Record<ApiMethod, Call>

export type ApiCalls = typeof API_CALLS

/** Each call's argument schema (what the main side validates a call's argument with). */
export const apiInputSchemas = Object.fromEntries(Object.entries(API_CALLS).map(([method, call]) => [method, call.input])) as {
  [M in ApiMethod]: ApiCalls[M]['input']
}

// Compile-time check: API_METHODS and the domains name the same calls.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never
export const contractIsComplete: Same<keyof ApiCalls, ApiMethod> = true

export type ApiResults = { [M in ApiMethod]: ResultOf<ApiCalls[M]> }
export type ApiArgs<M extends ApiMethod> = z.input<ApiCalls[M]['input']>
export type ApiParsedArgs<M extends ApiMethod> = z.output<ApiCalls[M]['input']>

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
