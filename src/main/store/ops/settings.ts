/**
 * Settings: one JSON value per key. A patch is merged one level deep; `null` removes a key
 * (RFC 7396 semantics), so a patch can never store a JSON null.
 */
import type { Actor, SettingsRecord, SettingsPatch } from '../contract'
import { rowsOf, run, type Plan } from '../plan'
import { parseJson } from '../rows'
import { checkSettingsPatch } from '../settings-patch'
import { appendAudit } from './audit'

export function* getSettings(): Plan<SettingsRecord> {
  const out: SettingsRecord = {}
  for (const r of yield* rowsOf<{ key: string; value: string }>('SELECT key, value FROM settings ORDER BY key')) {
    out[r.key] = parseJson(r.value)
  }
  return out
}

export function* setSettings(now: string, patch: SettingsPatch, actor: Actor): Plan<SettingsRecord> {
  const { entries, set, removed } = checkSettingsPatch(patch)
  for (const [key, v] of entries) {
    if (v === null) yield* run('DELETE FROM settings WHERE key = ?', key)
    else {
      yield* run(
        `INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?)
         ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
        key, JSON.stringify(v), now
      )
    }
  }
  yield* appendAudit(now, actor, 'settings.set', entries.map(([k]) => k).join(','), { set, removed })
  return yield* getSettings()
}
