/**
 * Settings: one JSON value per key. A patch is merged one level deep; `null` removes a key
 * (RFC 7396 semantics), so a patch can never store a JSON null.
 */
import type { JsonValue } from '../json'
import { StoreError, type Actor, type Settings, type SettingsPatch } from '../types'
import { checkId, checkJson } from '../validate'
import { appendAudit } from './audit'
import type { PgSql } from './connection'
import { parseJson } from './rows'

export async function getSettings(q: PgSql): Promise<Settings> {
  const out: Settings = {}
  for (const r of await q.all<{ key: string; value: string }>('SELECT key, value FROM settings ORDER BY key')) {
    out[r.key] = parseJson(r.value)
  }
  return out
}

export async function setSettings(q: PgSql, now: string, patch: SettingsPatch, actor: Actor): Promise<Settings> {
  if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) {
    throw new StoreError('bad_input', 'a settings patch must be an object')
  }
  const entries = Object.entries(patch)
  if (entries.length === 0) throw new StoreError('bad_input', 'a settings patch must change at least one key')
  const removed: string[] = []
  const set: Record<string, JsonValue> = {}
  for (const [key, value] of entries) {
    checkId(key, 'setting key')
    const v = checkJson(value, `settings.${key}`)
    if (v === null) {
      await q.run('DELETE FROM settings WHERE key = ?', key)
      removed.push(key)
    } else {
      await q.run(
        `INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?)
         ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
        key, JSON.stringify(v), now
      )
      set[key] = v
    }
  }
  await appendAudit(q, now, actor, 'settings.set', entries.map(([k]) => k).join(','), { set, removed })
  return getSettings(q)
}
