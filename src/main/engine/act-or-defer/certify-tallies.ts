import type { Budget } from '../certificate'
import { buildActOrDefer, type ActOrDeferConfig, type CertificateInfo } from './act-or-defer'
import { fitCouncil } from './fit-council'
import { summarize } from './summary'
import type { CertifySummary, CouncilFitConfig, TaskVerdict } from './types'
import type { TaskTallies } from '../tallies'

export interface CertifyTalliesConfig extends CouncilFitConfig, ActOrDeferConfig {
  /** The tasks to decide (cut / padded to the T of C). */
  readonly scored: readonly TaskTallies[]
  readonly budget: Budget
}

export interface CertifyTalliesResult {
  readonly summary: CertifySummary
  readonly tasks: TaskVerdict[]
  readonly certificate: CertificateInfo
}

/**
 * The stateless `certify` (docs/formats.md; docs/engine.md §8) in one call: fit the council on C (out-of-fold
 * fits + deployed fit), build the certificate for the chosen state source, decide `scored` under
 * `budget`, summarise. For repeated decisions use `fitCouncil` + `buildActOrDefer` instead.
 * @throws MethodRefused (no labeled calibration task, too few labels for CV, mixed candidate sets)
 * @throws RangeError for a bad budget or certificate option.
 */
export function certifyTallies(config: CertifyTalliesConfig): CertifyTalliesResult {
  const aod = buildActOrDefer(fitCouncil(config), config)
  const batch = aod.prepare(config.scored)
  const decisions = aod.decide(batch, config.budget)
  return { summary: summarize(decisions, batch), tasks: decisions.tasks, certificate: aod.info() }
}
