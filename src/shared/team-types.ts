/**
 * Result types of team mode's calls (several reviewers per task, adjudication,
 * agreement). JSON only: `null` never `undefined`.
 */
import type { LabelView } from './loop-types'

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
  /** Whether the caller may adjudicate (the `adjudicators` setting is empty or names them). */
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
