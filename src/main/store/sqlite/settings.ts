/**
 * Settings: one JSON value per key. A patch is merged one level deep; `null` removes a key
 * (RFC 7396 semantics), so a patch can never store a JSON null.
 */
import { checkSettingsPatch } from '../settings-patch'
import type { Actor, Settings, SettingsPatch } from '../contract'
import { appendAudit } from './audit'
import type { Sql } from './connection'
import { parseJson } from '../rows'

export function getSettings(q: Sql): Settings {
  const out: Settings = {}
  for (const r of q.all<{ key: string; value: string }>('SELECT key, value FROM settings ORDER BY key')) {
    out[r.key] = parseJson(r.value)
  }
  return out
}

export function setSettings(q: Sql, now: string, patch: SettingsPatch, actor: Actor): Settings {
  const { entries, set, removed } = checkSettingsPatch(patch)
  for (const [key, v] of entries) {
    if (v === null) q.run('DELETE FROM settings WHERE key = ?', key)
    else {
      q.run(
        `INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?)
         ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
        key, JSON.stringify(v), now
      )
    }
  }
  appendAudit(q, now, actor, 'settings.set', entries.map(([k]) => k).join(','), { set, removed })
  return getSettings(q)
}
