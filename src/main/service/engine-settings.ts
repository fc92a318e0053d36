import { z } from 'zod'
import { DEFAULT_ENGINE_SETTINGS, engineSettingsSchema, type DefaultsNotice, type EngineSettings } from '../../shared/api'
import type { Actor, SettingsRecord, Store } from '../store'
import { PrefixedSettings } from './prefixed-settings'

/** Engine settings live beside the user settings, each under `engine.<name>`. */
const ENGINE = new PrefixedSettings<EngineSettings>('engine.', engineSettingsSchema, DEFAULT_ENGINE_SETTINGS, 'engine setting')

/** Stored values over the defaults; a value that no longer fits the schema falls back to its default. */
export function engineSettingsFromStored(stored: SettingsRecord): EngineSettings {
  return ENGINE.fromStored(stored)
}

export function readEngineSettings(store: Store): Promise<EngineSettings> {
  return ENGINE.read(store)
}

export function updateEngineSettings(store: Store, patch: Partial<EngineSettings>, actor: Actor): Promise<EngineSettings> {
  return ENGINE.update(store, patch, actor)
}

/**
 * Written by the migration that changed the defaults (sqlite 0006, postgres 0003) when it kept an
 * older database's behaviour (docs/engine.md §10); removed when the user dismisses the notice.
 */
export const DEFAULTS_NOTICE_KEY = 'notice.defaultsChanged'
const noticeSchema = z.object({ at: z.string(), kept: z.record(z.string(), z.unknown()) })

export async function readDefaultsNotice(store: Store): Promise<DefaultsNotice | null> {
  const parsed = noticeSchema.safeParse((await store.getSettings())[DEFAULTS_NOTICE_KEY])
  return parsed.success ? { at: parsed.data.at, kept: parsed.data.kept } : null
}

/** Removes the notice (one audited write); false when there was none. */
export async function dismissDefaultsNotice(store: Store, actor: Actor): Promise<boolean> {
  if ((await store.getSettings())[DEFAULTS_NOTICE_KEY] === undefined) return false
  await store.setSettings({ [DEFAULTS_NOTICE_KEY]: null }, actor)
  return true
}

/** The demo marker: set on a database `arbiter demo` built, so the console can show its badge. */
export const DEMO_KEY = 'demo'
