/**
 * The labels fits and audits learn from: every task's effective label, except — with N reviewers per
 * task (team settings) — a task whose blind labels are still owed. A fit's weights, an audit's
 * figures, an agreement κ and a refit's notice are readable by every login, so one that moved on a
 * blind label would tell a reviewer still blind on that task what it said; such a label counts once
 * every reviewer owed on the task has labeled it (or a ruling settled it). With N = 1 every label counts.
 */
import type { EffectiveLabel, Store, Vote } from '../../store'
import { readTeamSettings } from '../team-settings'

export async function fitLabels(store: Store): Promise<EffectiveLabel[]> {
  const { reviewersPerTask } = await readTeamSettings(store)
  return store.effectiveLabels(reviewersPerTask)
}

/** The reviewers' votes agreement is measured on, under the same rule. */
export async function agreementVotes(store: Store): Promise<Vote[]> {
  const { reviewersPerTask } = await readTeamSettings(store)
  return store.votes(reviewersPerTask)
}
