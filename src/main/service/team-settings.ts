import { DEFAULT_TEAM_SETTINGS, mayAdjudicate, mayTuneEngine, teamSettingsSchema, type CallContext, type TeamSettings } from '../../shared/api'
import { ApiError } from '../../shared/errors'
import type { Actor, Store } from '../store'
import { PrefixedSettings } from './prefixed-settings'

/** The caller holds the adjudicator's rights (shared/contract/team.ts `mayAdjudicate`); the CLI always does. */
export function isAdjudicator(settings: TeamSettings, ctx: CallContext): boolean {
  return ctx.shell === 'cli' || mayAdjudicate(settings, ctx.reviewer, ctx.reviewerFromToken === true)
}

/** Refuses `what` unless the caller is an adjudicator, naming who is. */
export async function requireAdjudicator(store: Store, ctx: CallContext, what: string): Promise<TeamSettings> {
  const team = await readTeamSettings(store)
  if (isAdjudicator(team, ctx)) return team
  throw notAnAdjudicator(team, what)
}

/**
 * Refuses `what` (the engine settings, a re-decide, a rollback) to a per-reviewer login that is
 * not a named adjudicator (shared/contract/team.ts `mayTuneEngine`): they move every reviewer's
 * verdicts at once. The one local user and the CLI keep them.
 */
export async function requireEngineRights(store: Store, ctx: CallContext, what: string): Promise<void> {
  if (ctx.shell === 'cli' || ctx.reviewerFromToken !== true) return
  const team = await readTeamSettings(store)
  if (!mayTuneEngine(team, ctx.reviewer, true)) throw notAnAdjudicator(team, what)
}

function notAnAdjudicator(team: TeamSettings, what: string): ApiError {
  const who = team.adjudicators.length === 0 ? 'no adjudicator is named (the team settings name them; `arbiter serve --adjudicator NAME`)' : `only ${team.adjudicators.join(', ')} may`
  return new ApiError('unauthorized', `${what} needs an adjudicator: ${who}`)
}

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
