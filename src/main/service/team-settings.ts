import { DEFAULT_TEAM_SETTINGS, teamSettingsSchema, type TeamSettings } from '../../shared/api'
import type { Actor, Store } from '../store'
import { PrefixedSettings } from './prefixed-settings'

export { mayAdjudicate } from '../../shared/api'

/**
 * Team settings belong to the database, shared by everyone on it, under `team.<name>`:
 * reviewers per task N, and who may adjudicate.
 */
const TEAM = new PrefixedSettings<TeamSettings>('team.', teamSettingsSchema, DEFAULT_TEAM_SETTINGS, 'team setting')

export function readTeamSettings(store: Store): Promise<TeamSettings> {
  return TEAM.read(store)
}

export function updateTeamSettings(store: Store, patch: Partial<TeamSettings>, actor: Actor): Promise<TeamSettings> {
  return TEAM.update(store, patch, actor)
}
