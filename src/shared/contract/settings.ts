/**
 * Settings: the reviewer's own (name, theme) and the engine's, which fit and decide read
 * (docs/engine.md §7–§10) and which belong to the database, stored with the other settings.
 */
import { z } from 'zod'
import { command, defineCalls, noArgs, query, returns } from './call'

export const THEMES = ['system', 'light', 'dark'] as const
/** The longest reading time a reviewer may ask for before a label counts. */
export const DWELL_MAX_MS = 5000

/** User settings with their defaults. */
export const settingsSchema = z.object({
  reviewer: z.string().trim().min(1).max(80),
  theme: z.enum(THEMES),
  /**
   * How long a task must have been on screen before a label key (or a click on a candidate) counts:
   * a quicker one is dropped, so a held or hurried key cannot label a task nobody read. 0 turns it off.
   */
  dwellMs: z.number().int().min(0).max(DWELL_MAX_MS)
})
export type Settings = z.infer<typeof settingsSchema>
export const DEFAULT_SETTINGS: Settings = { reviewer: 'reviewer', theme: 'system', dwellMs: 400 }

export const METHOD_NAMES = [
  'majority', 'majority-final', 'best-seat', 'gated', 'ds-em', 'ds-em-full', 'shared', 'per-agent', 'tempered', 'confusion', 'standing-vote'
] as const
export const STATE_SOURCES = ['social', 'posterior'] as const
/** docs/engine.md §8.7's concentration bounds (`--bound`, `engine.bound`). */
export const BOUND_KINDS = ['binomial', 'hoeffding'] as const
export type BoundKind = (typeof BOUND_KINDS)[number]
export const LABEL_POLICIES = ['all', 'random'] as const

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

/**
 * Set when a database made by an older version was first opened by this one (docs/engine.md §10): the
 * engine settings it never stored were written with the defaults it ran under, so its behaviour did
 * not change. Settings shows it until dismissed.
 */
export interface DefaultsNotice {
  /** When the old defaults were written. */
  at: string
  /** Each engine setting written (its name without `engine.`) with the old default it keeps. */
  kept: Record<string, unknown>
}

export const settingsCalls = defineCalls({
  'settings.get': query(noArgs, returns<Settings>(), ['settings']),
  'settings.update': command(z.object({ patch: settingsSchema.partial().strict() }).strict(), returns<Settings>()),
  'engine.getSettings': query(noArgs, returns<EngineSettings>(), ['settings']),
  'engine.updateSettings': command(z.object({ patch: engineSettingsSchema.partial().strict() }).strict(), returns<EngineSettings>()),
  'engine.defaultsNotice': query(noArgs, returns<DefaultsNotice | null>(), ['settings']),
  'engine.dismissDefaultsNotice': command(noArgs, returns<{ dismissed: boolean }>())
})
