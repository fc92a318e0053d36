/**
 * Act-or-defer certificate core (docs/engine.md §8 certificate, §9 drift, §10 spot-check routing;
 * AoD §3, App. B–C). Pure TypeScript on already-computed per-round states — no I/O and no
 * dependency on the aggregator. Typical wiring:
 *
 *     const result = certify(calibration, scored, { kind: 'auto' }, { seed })
 *
 * where `calibration[j] = { id, states (out-of-fold), z }` and
 * `scored[i] = { id, states, answers }` (see `types.ts`). For λ sweeps or frontiers build once
 * (`buildCertificate`), bound once (`computeBounds`), then decide at as many β as needed
 * (`resolveBudget` + `decideTasks`). `../act-or-defer` computes those states from an aggregator
 * over tallies (out-of-fold for C) — the engine's entry point for the CLI and the service.
 */
export type {
  Budget,
  BoundKind,
  BoundWhy,
  CalibrationTask,
  CertificateOptions,
  DeferReason,
  ResolvedOptions,
  RoundState,
  ScoredTask,
  StateTask,
  TaskDecision
} from './types'
export { BINOMIAL_KS, BOUND_KINDS, DEFAULT_BOUND, DEFAULT_KS, defaultKs, resolveOptions } from './options'
export { actionAlpha, finalRoundError, LAMBDA_GRID } from './budget'
export { concentration } from './concentration'
export { binomialLevel, clopperPearsonLower } from './clopperPearson'
export { kBoundRule, type KBoundRule } from './kBound'
export { posteriorState, roundToGrid, socialShares, socialState, stateOf } from './states'
export { EmpiricalCdf } from './ecdf'
export { hashOrder, lambdaHalves, minCalibrationFor, splitModLoc } from './split'
export { SplineBasis, quantileKnots, sortedQuantile, SPLINE_DEGREE } from './bspline'
export { choleskySolve } from './cholesky'
export { fitLogisticSpline, type LogisticSplineFit, type LogisticSplineOptions } from './logisticSpline'
export { fitSmoother, isotonicOnSites, type SmootherFit, type SmootherKind } from './smoother'
export { EmpiricalModulus } from './modulus'
export { LocalIndex, type NeighbourhoodResult } from './localIndex'
export {
  buildCertificate,
  calibrationRounds,
  concentrations,
  usableKs,
  type Certificate,
  type RoundModel
} from './build'
export { boundMemo, boundsOfStates, computeBounds, type BoundMemo, type BoundTable, type StateColumns } from './bounds'
export { bestRound, decideColumns, decideTasks, firstCrossing, taskReason, type DecidedColumns } from './decide'
export { MAX_BUDGET_USAGE, selectLambda, type LambdaCandidate, type LambdaSelection } from './lambda'
export { certify, certifyWith, type CertifyResult } from './certify'
export { deferAllReason, resolveBudget, resolveFixedBudget, type BudgetFigures, type ResolvedBudget } from './resolveBudget'
export {
  certificateMetrics,
  metricsFromStops,
  riskAutomationFrontier,
  type CertificateMetrics,
  type FrontierPoint
} from './metrics'
export { DEFAULT_SPOT_RATE, isSpotChecked } from './spotCheck'
export { bootstrapDraws, hasTimeOrder, seatDrift, type DriftOptions, type DriftSeatCounts, type DriftTask, type SeatDrift } from './drift'
