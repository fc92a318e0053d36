import { DEFAULT_ENGINE_SETTINGS, engineSettingsSchema, type EngineSettings } from '../../shared/api'
import type { Actor, Settings, Store } from '../store'
import { PrefixedSettings } from './prefixed-settings'

/** Engine settings live beside the user settings, each under `engine.<name>`. */
const ENGINE = new PrefixedSettings<EngineSettings>('engine.', engineSettingsSchema, DEFAULT_ENGINE_SETTINGS, 'engine setting')

/** Stored values over the defaults; a value that no longer fits the schema falls back to its default. */
export function engineSettingsFromStored(stored: Settings): EngineSettings {
  return ENGINE.fromStored(stored)
}

export function readEngineSettings(store: Store): Promise<EngineSettings> {
  return ENGINE.read(store)
}

export function updateEngineSettings(store: Store, patch: Partial<EngineSettings>, actor: Actor): Promise<EngineSettings> {
  return ENGINE.update(store, patch, actor)
}

/** The demo marker: set on a database `arbiter demo` built, so the console can show its badge. */
export const DEMO_KEY = 'demo'
