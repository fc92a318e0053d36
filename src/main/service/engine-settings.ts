import { DEFAULT_ENGINE_SETTINGS, engineSettingsSchema, type EngineSettings } from '../../shared/api'
import type { Actor, JsonValue, Settings, Store } from '../store'

/** Engine settings live beside the user settings, each under `engine.<name>`. */
const PREFIX = 'engine.'

/** Stored values over the defaults; a value that no longer fits the schema falls back to its default. */
export function engineSettingsFromStored(stored: Settings): EngineSettings {
  const out: Record<string, unknown> = { ...DEFAULT_ENGINE_SETTINGS }
  const shape = engineSettingsSchema.shape
  for (const key of Object.keys(shape) as (keyof EngineSettings)[]) {
    const v = stored[PREFIX + key]
    if (v === undefined) continue
    const parsed = shape[key].safeParse(v)
    if (parsed.success) out[key] = parsed.data
    else console.warn(`[arbiter] stored engine setting ${key} is invalid; using the default`)
  }
  return out as EngineSettings
}

export async function readEngineSettings(store: Store): Promise<EngineSettings> {
  return engineSettingsFromStored(await store.getSettings())
}

export async function updateEngineSettings(store: Store, patch: Partial<EngineSettings>, actor: Actor): Promise<EngineSettings> {
  const stored: Record<string, JsonValue> = {}
  for (const [k, v] of Object.entries(patch)) if (v !== undefined) stored[PREFIX + k] = v as JsonValue
  if (Object.keys(stored).length > 0) await store.setSettings(stored, actor)
  return readEngineSettings(store)
}

/** The demo marker: set on a database `arbiter demo` built, so the console can show its badge. */
export const DEMO_KEY = 'demo'
