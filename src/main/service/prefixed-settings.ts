import type { z } from 'zod'
import type { Actor, JsonValue, SettingsRecord, Store } from '../store'

/**
 * A group of settings stored beside the user settings, each under `<prefix><name>` (engine
 * settings under `engine.`, team settings under `team.`), read over their defaults: a stored value
 * that no longer fits the schema (written by an older version, say) falls back to its default for
 * this read, and the stored value itself is kept.
 */
export class PrefixedSettings<T extends object> {
  constructor(
    private readonly prefix: string,
    private readonly schema: { shape: Record<string, z.ZodType> },
    private readonly defaults: T,
    private readonly what: string
  ) {}

  fromStored(stored: SettingsRecord): T {
    const out: Record<string, unknown> = { ...(this.defaults as Record<string, unknown>) }
    for (const [key, field] of Object.entries(this.schema.shape)) {
      const v = stored[this.prefix + key]
      if (v === undefined) continue
      const parsed = field.safeParse(v)
      if (parsed.success) out[key] = parsed.data
      else console.warn(`[arbiter] stored ${this.what} ${key} is invalid; using the default`)
    }
    return out as T
  }

  async read(store: Store): Promise<T> {
    return this.fromStored(await store.getSettings())
  }

  /** Writes the patch's defined keys in one audited write; returns the settings after it. */
  async update(store: Store, patch: Partial<T>, actor: Actor): Promise<T> {
    const stored: Record<string, JsonValue> = {}
    for (const [k, v] of Object.entries(patch)) if (v !== undefined) stored[this.prefix + k] = v as JsonValue
    if (Object.keys(stored).length > 0) await store.setSettings(stored, actor)
    return this.read(store)
  }
}
