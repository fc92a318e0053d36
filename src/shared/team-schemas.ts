/**
 * Team mode's settings and input schemas (several reviewers per task, adjudication).
 * The settings belong to the database, shared by the whole team, stored beside the others under
 * `team.<name>`.
 */
import { z } from 'zod'

const id = z.string().min(1).max(512)
const noArgs = z.object({}).strict()
const reviewerName = z.string().trim().min(1).max(80)

export const teamSettingsSchema = z.object({
  /** N: a task stays sealed (Calibrate draws it for more reviewers) until N reviewers labeled it. */
  reviewersPerTask: z.number().int().min(1).max(20),
  /** Who may adjudicate a disagreement; empty: any reviewer. */
  adjudicators: z.array(reviewerName).max(100)
})
export type TeamSettings = z.infer<typeof teamSettingsSchema>
export const DEFAULT_TEAM_SETTINGS: TeamSettings = { reviewersPerTask: 1, adjudicators: [] }

/** Anyone may adjudicate unless the `adjudicators` setting names who may (the service decides; the console shows). */
export function mayAdjudicate(settings: TeamSettings, reviewer: string): boolean {
  return settings.adjudicators.length === 0 || settings.adjudicators.includes(reviewer)
}

export const teamInputSchemas = {
  'team.getSettings': noArgs,
  'team.updateSettings': z.object({ patch: teamSettingsSchema.partial().strict() }).strict(),
  'adjudicate.list': z
    .object({ offset: z.number().int().min(0).default(0), limit: z.number().int().min(1).max(200).default(50) })
    .strict(),
  'adjudicate.resolve': z
    .object({
      taskId: id,
      label: z.string().max(4096),
      expectedVersion: z.number().int().min(0),
      note: z.string().max(4000).nullable().default(null)
    })
    .strict()
} as const
