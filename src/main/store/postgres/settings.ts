/**
 * Settings: one JSON value per key. A patch is merged one level deep; `null` removes a key
 * (RFC 7396 semantics), so a patch can never store a JSON null.
 */
import { checkSettingsPatch } from '../settings-patch'
import type { Actor, Settings, SettingsPatch } from '../contract'
import { appendAudit } from './audit'
import type { PgSql } from './connection'
import { parseJson } from '../rows'

export async function getSettings(q: PgSql): Promise<Settings> {
  const out: Settings = {}
  for (const r of await q.all<{ key: string; value: string }>('SELECT key, value FROM settings ORDER BY key')) {
    out[r.key] = parseJson(r.value)
  }
  return out
}

export async function setSettings(q: PgSql, now: string, patch: SettingsPatch, actor: Actor): Promise<Settings> {
  const { entries, set, removed } = checkSettingsPatch(patch)
  for (const [key, v] of entries) {
    if (v === null) await q.run('DELETE FROM settings WHERE key = ?', key)
    else {
      await q.run(
        `INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?)
         ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
        key, JSON.stringify(v), now
      )
    }
  }
  await appendAudit(q, now, actor, 'settings.set', entries.map(([k]) => k).join(','), { set, removed })
  return getSettings(q)
}
