/**
 * Team mode: several reviewers per task, adjudication of their disagreements, and how far they
 * agree. The settings belong to the database, shared by the whole team, stored beside the others
 * under `team.<name>`.
 */
import { z } from 'zod'
import { command, defineCalls, id, noArgs, query, returns } from './call'
import type { LabelView, ResolveResult } from './labels'

const reviewerName = z.string().trim().min(1).max(80)

export const teamSettingsSchema = z.object({
  /** N: a task stays sealed (Calibrate draws it for more reviewers) until N reviewers labeled it. */
  reviewersPerTask: z.number().int().min(1).max(20),
  /** Who may adjudicate a disagreement; empty: nobody with per-reviewer logins, the one local user otherwise. */
  adjudicators: z.array(reviewerName).max(100)
})
export type TeamSettings = z.infer<typeof teamSettingsSchema>
export const DEFAULT_TEAM_SETTINGS: TeamSettings = { reviewersPerTask: 1, adjudicators: [] }

/**
 * Who holds the adjudicator's rights (rule on a disagreement, undo a ruling, end another's hold,
 * change the team settings, import labels as `random`; with logins also `mayTuneEngine`'s rights). With per-reviewer logins (`perLogin`) only
 * a named adjudicator: a team that names none has none, so no login can steer the calibration set
 * by granting itself the role. Without logins (the desktop app, `serve` alone) the one local user
 * is everyone, unless the setting names who adjudicates. The service decides; the console shows.
 */
export function mayAdjudicate(settings: TeamSettings, reviewer: string, perLogin: boolean): boolean {
  if (settings.adjudicators.length === 0) return !perLogin
  return settings.adjudicators.includes(reviewer)
}

/**
 * Who may change the engine settings, re-decide under another budget or roll a fit back: moves that
 * change every reviewer's verdicts at once. With per-reviewer logins, the named adjudicators only
 * (none named: nobody from the console; the CLI always may); without logins, the one local user.
 */
export function mayTuneEngine(settings: TeamSettings, reviewer: string, perLogin: boolean): boolean {
  return !perLogin || mayAdjudicate(settings, reviewer, true)
}

/** A task whose reviewers disagree, with every live label and who gave it. */
export interface AwaitingTaskView {
  taskId: string
  question: string | null
  group: string | null
  candidates: string[]
  /** Pass as `expectedVersion` when adjudicating. */
  version: number
  labels: LabelView[]
}

export interface AdjudicationList {
  rows: AwaitingTaskView[]
  /** Tasks awaiting adjudication (all pages). */
  total: number
  offset: number
  limit: number
  /** Whether the caller may adjudicate (team.ts `mayAdjudicate`). */
  canAdjudicate: boolean
}

/** Chance-corrected agreement over `tasks` tasks: observed P_o, chance P_e, κ (null when P_e = 1). */
export interface KappaView {
  tasks: number
  observed: number
  expected: number
  kappa: number | null
}

/** Cohen's κ of two reviewers over the tasks both labeled. */
export interface AgreementPair extends KappaView {
  a: string
  b: string
}

/** Fleiss' κ over the tasks two or more reviewers labeled (generalised to varying raters per task). */
export interface AgreementOverall extends KappaView {
  /** Fewest and most reviewers on one task. */
  minRaters: number
  maxRaters: number
}

export interface AgreementView {
  /** Reviewers with a vote on a task someone else labeled too. */
  reviewers: string[]
  pairs: AgreementPair[]
  overall: AgreementOverall | null
}

export const teamCalls = defineCalls({
  'team.getSettings': query(noArgs, returns<TeamSettings>(), ['settings']),
  'team.updateSettings': command(z.object({ patch: teamSettingsSchema.partial().strict() }).strict(), returns<TeamSettings>()),
  'adjudicate.list': query(
    z.object({ offset: z.number().int().min(0).default(0), limit: z.number().int().min(1).max(200).default(50) }).strict(),
    returns<AdjudicationList>(),
    ['tasks', 'labels']
  ),
  /** A ruling: recorded as a label marked adjudicated. */
  'adjudicate.resolve': command(
    z
      .object({
        taskId: id,
        label: z.string().max(4096),
        expectedVersion: z.number().int().min(0),
        note: z.string().max(4000).nullable().default(null)
      })
      .strict(),
    returns<ResolveResult>()
  )
})
