/**
 * Input schemas of the operating loop's calls: queue, task, labels, calibrate,
 * imports, fits, export, demo, audit. Every field the console may leave out has its default
 * here, so the main side always sees complete arguments.
 */
import { z } from 'zod'
import { FLAG_REASON_MAX } from './limits'
import { LABEL_SOURCES, QUEUE_SORTS, TASK_STATES } from './vocabularies'

export { LABEL_SOURCES, QUEUE_SORTS, TASK_STATES } from './vocabularies'

export const METHOD_NAMES = [
  'majority', 'majority-final', 'best-seat', 'gated', 'ds-em', 'ds-em-full', 'shared', 'per-agent', 'tempered', 'confusion', 'standing-vote'
] as const
export const STATE_SOURCES = ['social', 'posterior'] as const
/** docs/engine.md §8.7's concentration bounds (`--bound`, `engine.bound`). */
export const BOUND_KINDS = ['binomial', 'hoeffding'] as const
export type BoundKind = (typeof BOUND_KINDS)[number]
export const LABEL_POLICIES = ['all', 'random'] as const
export const EXPORT_FORMATS = ['jsonl', 'csv'] as const
/** What `export` writes: decisions, live labels, or flags (`arbiter.flags/1`) of the filtered tasks. */
export const EXPORT_KINDS = ['decisions', 'labels', 'flags'] as const
export type ExportKind = (typeof EXPORT_KINDS)[number]
export const IMPORT_KINDS = ['auto', 'traces', 'rounds', 'csv', 'labels'] as const

const id = z.string().min(1).max(512)
const noArgs = z.object({}).strict()

/** The budget β (docs/engine.md §8): an absolute β (the default, β = 0.20), relative β = λ·ê_T, or λ = auto. */
export const budgetSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('auto') }).strict(),
  z.object({ kind: z.literal('relative'), lambda: z.number().min(0).max(100) }).strict(),
  z.object({ kind: z.literal('absolute'), beta: z.number().min(0).max(1) }).strict()
])
export type BudgetSetting = z.infer<typeof budgetSchema>

/** What fit and decide read (docs/engine.md §7–§10); stored with the other settings. */
export const engineSettingsSchema = z.object({
  method: z.enum(METHOD_NAMES),
  budget: budgetSchema,
  /** The concentration bound of the certificate (§8.7): binomial (the default) or hoeffding (AoD as published). */
  bound: z.enum(BOUND_KINDS),
  /** Calibration-failure budget δ. */
  delta: z.number().gt(0).lt(0.5),
  /** Representation-gap budget ε_act. */
  epsAct: z.number().min(0).lt(0.5),
  state: z.enum(STATE_SOURCES),
  /** Spot-check share ρ (§10). */
  spotRate: z.number().min(0).max(1),
  /** Which labels fit reliabilities and hyperparameters: all (default) or `random` only (§10). */
  labelPolicy: z.enum(LABEL_POLICIES),
  seed: z.number().int().min(0).max(2 ** 31),
  /** Refit in the background after new labels. */
  autoRefit: z.boolean(),
  /** Quiet time after the last label before that refit starts. */
  refitDelayMs: z.number().int().min(0).max(3_600_000)
})
export type EngineSettings = z.infer<typeof engineSettingsSchema>
export const DEFAULT_ENGINE_SETTINGS: EngineSettings = {
  method: 'standing-vote',
  budget: { kind: 'absolute', beta: 0.2 },
  bound: 'binomial',
  delta: 0.03,
  epsAct: 0.02,
  state: 'social',
  spotRate: 0.05,
  labelPolicy: 'all',
  seed: 0,
  autoRefit: true,
  refitDelayMs: 2000
}

/** The queue's filter; the exports take the same one (so an export is exactly what the queue shows). */
export const taskFilterSchema = z
  .object({
    decision: z.enum(TASK_STATES).nullable().default(null),
    group: z.string().max(512).nullable().default(null),
    seat: z.string().max(512).nullable().default(null),
    candidate: z.string().max(4096).nullable().default(null),
    labelSource: z.enum(LABEL_SOURCES).nullable().default(null),
    spotCheck: z.boolean().nullable().default(null),
    search: z.string().max(500).nullable().default(null),
    /** true: flagged tasks only; false: unflagged only; null or absent: either. */
    flagged: z.boolean().nullable().optional()
  })
  .strict()
export type TaskFilterInput = z.input<typeof taskFilterSchema>
export type TaskFilterArgs = z.output<typeof taskFilterSchema>

const DEFAULT_QUEUE_FILTER: TaskFilterArgs = { decision: 'defer', group: null, seat: null, candidate: null, labelSource: null, spotCheck: null, search: null }

export const csvDialectSchema = z
  .object({
    columns: z.tuple([z.enum(['task', 'worker', 'label']), z.enum(['task', 'worker', 'label']), z.enum(['task', 'worker', 'label'])]).nullable().default(null),
    delimiter: z.enum(['comma', 'tab', 'space']).nullable().default(null),
    header: z.boolean().default(true)
  })
  .strict()

/** A file on this machine (CLI) or one registered as an upload: sent by `imports.upload` (browser) or picked by `imports.pick` (desktop). */
export const fileSourceSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('path'), path: z.string().min(1).max(4096) }).strict(),
  z.object({ kind: z.literal('upload'), uploadId: z.string().uuid() }).strict()
])
export type FileSource = z.infer<typeof fileSourceSchema>

export const loopInputSchemas = {
  'engine.getSettings': noArgs,
  'engine.updateSettings': z.object({ patch: engineSettingsSchema.partial().strict() }).strict(),
  'engine.defaultsNotice': noArgs,
  'engine.dismissDefaultsNotice': noArgs,
  'queue.page': z
    .object({
      filter: taskFilterSchema.default(DEFAULT_QUEUE_FILTER),
      sort: z.enum(QUEUE_SORTS).default('gap'),
      direction: z.enum(['asc', 'desc']).default('asc'),
      offset: z.number().int().min(0).default(0),
      limit: z.number().int().min(1).max(500).default(50)
    })
    .strict(),
  'queue.facets': noArgs,
  'task.detail': z.object({ taskId: id, blind: z.boolean().default(false) }).strict(),
  'task.reserve': z.object({ taskId: id }).strict(),
  'task.release': z.object({ taskId: id }).strict(),
  'task.releaseHold': z.object({ taskId: id }).strict(),
  'labels.resolve': z
    .object({
      taskId: id,
      label: z.string().max(4096),
      expectedVersion: z.number().int().min(0),
      source: z.enum(LABEL_SOURCES).default('escalation'),
      note: z.string().max(4000).nullable().default(null)
    })
    .strict(),
  'labels.undo': z.object({ labelId: id, expectedVersion: z.number().int().min(0) }).strict(),
  'labels.recent': z.object({ limit: z.number().int().min(1).max(500).default(20) }).strict(),
  /** The caller's own labels, newest first (the history panel); `source` narrows them to one screen's. */
  'labels.history': z.object({ source: z.enum(LABEL_SOURCES).nullable().default(null), limit: z.number().int().min(1).max(100).default(20) }).strict(),
  /** Undoes the caller's latest live label of this source (Review: escalation, Calibrate: random). */
  'labels.undoLast': z.object({ source: z.enum(LABEL_SOURCES) }).strict(),
  'flags.add': z.object({ taskId: id, reason: z.string().trim().min(1).max(FLAG_REASON_MAX) }).strict(),
  'calibrate.draw': z
    .object({ exclude: z.array(id).max(10_000).default([]), spotCheckOnly: z.boolean().default(false) })
    .strict(),
  'imports.run': z
    .object({
      source: fileSourceSchema,
      kind: z.enum(IMPORT_KINDS).default('auto'),
      skipInvalid: z.boolean().default(false),
      goldAs: z.enum(LABEL_SOURCES).nullable().default(null),
      dialect: csvDialectSchema.default({ columns: null, delimiter: null, header: true }),
      gold: fileSourceSchema.nullable().default(null)
    })
    .strict(),
  'imports.list': z.object({ limit: z.number().int().min(1).max(500).default(50) }).strict(),
  'fits.run': noArgs,
  'fits.decide': z.object({ budget: budgetSchema, bound: z.enum(BOUND_KINDS).optional() }).strict(),
  'fits.list': z.object({ limit: z.number().int().min(1).max(500).default(50) }).strict(),
  'fits.get': z.object({ fitId: id }).strict(),
  'fits.rollback': z.object({ fitId: id }).strict(),
  'fits.status': noArgs,
  /** What the settings would do under the current fit's stored bounds, before saving them. */
  'fits.whatIf': z.object({ settings: engineSettingsSchema }).strict(),
  /** What a fit changed against the fit before it. */
  'fits.change': z.object({ fitId: id }).strict(),
  'export.run': z
    .object({
      what: z.enum(EXPORT_KINDS),
      filter: taskFilterSchema.default({ decision: null, group: null, seat: null, candidate: null, labelSource: null, spotCheck: null, search: null }),
      format: z.enum(EXPORT_FORMATS).default('jsonl'),
      /** Write to this file (desktop, CLI); null: return the content (browser download). */
      path: z.string().min(1).max(4096).nullable().default(null)
    })
    .strict(),
  'demo.status': noArgs,
  'demo.startEmpty': noArgs,
  'audit.tail': z.object({ limit: z.number().int().min(1).max(1000).default(100) }).strict()
} as const
