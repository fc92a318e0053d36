/**
 * The check of a settings patch, the same for both backends: one level deep, and `null` removes a
 * key (RFC 7396 semantics), so a patch can never store a JSON null.
 */
import type { JsonValue } from './contract'
import { StoreError, type SettingsPatch } from './contract'
import { checkId, checkJson } from './validate'

export type CheckedSettingsPatch = {
  /** Every key of the patch in its order, with its checked value (`null`: remove the key). */
  entries: [string, JsonValue][]
  set: Record<string, JsonValue>
  removed: string[]
}

export function checkSettingsPatch(patch: SettingsPatch): CheckedSettingsPatch {
  if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) {
    throw new StoreError('bad_input', 'a settings patch must be an object')
  }
  const raw = Object.entries(patch)
  if (raw.length === 0) throw new StoreError('bad_input', 'a settings patch must change at least one key')
  const entries: [string, JsonValue][] = []
  const removed: string[] = []
  const set: Record<string, JsonValue> = {}
  for (const [key, value] of raw) {
    checkId(key, 'setting key')
    const v = checkJson(value, `settings.${key}`)
    entries.push([key, v])
    if (v === null) removed.push(key)
    else set[key] = v
  }
  return { entries, set, removed }
}
