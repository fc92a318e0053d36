/**
 * Whether this console may move the engine (its settings, a re-decide, a rollback): shared/contract
 * team.ts `mayTuneEngine`, from the login, the team settings and the app info. The server decides;
 * this only spares a login a button that would be refused, and says why.
 */
import { mayTuneEngine } from '@shared/api'
import { useAppInfo, useSettings } from './queries'
import { useTeamSettings } from './team-queries'

export interface EngineRights {
  /** Undefined while the facts load. */
  allowed: boolean | undefined
  /** Why not, in a sentence; null when allowed. */
  why: string | null
}

export function useEngineRights(): EngineRights {
  const settings = useSettings()
  const team = useTeamSettings()
  const info = useAppInfo()
  if (settings.data === undefined || team.data === undefined || info.data === undefined) return { allowed: undefined, why: null }
  if (mayTuneEngine(team.data, settings.data.reviewer, info.data.reviewerFromToken)) return { allowed: true, why: null }
  const named = team.data.adjudicators
  const who =
    named.length === 0
      ? 'no adjudicator is named yet (the person running arbiter serve names them with --adjudicator)'
      : `only ${named.join(', ')} may`
  return { allowed: false, why: `The engine’s settings, re-decides and rollbacks change every reviewer’s verdicts, so they are an adjudicator’s: ${who}.` }
}
