import { DEFAULT_SETTINGS, settingsSchema, type Settings } from '../../shared/api'

/**
 * Stored settings merged over the defaults. A stored value that no longer fits the schema
 * (written by an older version, say) is reported and replaced by its default for this read
 * only; the stored value itself is kept.
 */
export function settingsFromStored(stored: Record<string, unknown>): Settings {
  const out: Record<string, unknown> = { ...DEFAULT_SETTINGS }
  const shape = settingsSchema.shape
  for (const key of Object.keys(shape) as (keyof Settings)[]) {
    if (!(key in stored)) continue
    const parsed = shape[key].safeParse(stored[key])
    if (parsed.success) out[key] = parsed.data
    else console.warn(`[arbiter] stored setting ${key} is invalid; using the default`)
  }
  return out as Settings
}
