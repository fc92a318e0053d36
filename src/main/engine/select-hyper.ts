import { cvSelect } from './cv-select'
import type { Hyper, Method } from './methods'
import { selectStandingVote } from './standing/select'
import type { TaskTallies } from './tallies'

/**
 * The hyperparameters §7's CV picks for a tuned method on the labeled tasks: the standing vote scores
 * its recalibrated posterior (§11, standing/select.ts), every paper method its raw one (cv-select.ts).
 */
export function selectHyper(method: Method, labeled: readonly TaskTallies[], seed: number, F = 5, labels?: readonly string[]): Hyper {
  if (method === 'standing-vote') return selectStandingVote(labeled, seed, F, null).hyper
  return cvSelect(method, labeled, seed, F, labels).hyper
}
