import { DEFAULT_SETTINGS, settingsSchema, type CallContext, type Settings } from '../../shared/api'
import { ApiError } from '../../shared/errors'

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

/**
 * The settings a caller sees: a caller whose login names their reviewer (`serve --reviewer`) sees
 * that name, not the database-wide setting the other shells use.
 */
export function asSeenBy(settings: Settings, ctx: CallContext): Settings {
  return ctx.reviewerFromToken === true ? { ...settings, reviewer: ctx.reviewer } : settings
}

/** A login's reviewer cannot be renamed from Settings: that would let one reviewer pose as another. */
export function refuseNameChange(patch: Partial<Settings>, ctx: CallContext): void {
  if (ctx.reviewerFromToken === true && patch.reviewer !== undefined) {
    throw new ApiError('bad_input', `your reviewer name (${ctx.reviewer}) comes from your login link (arbiter serve --reviewer); it cannot be changed here`)
  }
}
