/**
 * Act-or-defer over a fitted council (docs/engine.md §8–§10): the certificate of `../certificate`
 * wired to the aggregators, on `TaskTallies` only (the service stores tallies at import and never
 * re-reads moves). All tallies of one run must share one `SeatIndex`.
 *
 * Two levels:
 * - one call, for the stateless CLI: `certifyTallies({ method, hyper, calibration, scored, budget,
 *   state, seed, options })` → `{ summary, tasks, certificate }`; `certifySplits` for the
 *   evaluation protocol; `driftOfTallies` for §9;
 * - fit once, decide many (the service): `fitCouncil(config)` (out-of-fold + deployed fits, the
 *   costly part) → `buildActOrDefer(fits, { state })` → `aod.prepare(tallies)` (β-independent) →
 *   `aod.decide(batch, budget)`; `summarize(decisions, batch)` when the batch has gold.
 */
export type { CertifySummary, CouncilFitConfig, CouncilFits, StateSource, TaskVerdict } from './types'
export { STATE_SOURCES } from './types'
export { roundsInto, roundsOf, taskRounds, type RoundColumns, type TaskRounds } from './round-states'
export { calibrationTasks, fitCouncil } from './fit-council'
export { ActOrDefer, buildActOrDefer, type ActOrDeferConfig, type CertificateInfo, type Decisions, type PreparedBatch, type PreparedColumns } from './act-or-defer'
export { summarize } from './summary'
export { certifyTallies, type CertifyTalliesConfig, type CertifyTalliesResult } from './certify-tallies'
export { certifySplits, evaluationSplit, splitsReport, type CertifySplitsConfig, type SplitsReport, type SplitStats } from './splits'
export { driftOfTallies, type TimedLabel } from './drift'
