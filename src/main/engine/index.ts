/**
 * Arbiter's aggregation engine (docs/engine.md §1–§7): pure functions over typed-array tallies.
 * The CLI and service code against this file only.
 */
export { METHODS, DEFAULT_METHOD, HYPER_NAMES, GRID, MethodRefused, gridPoints, validateHyper, isLabelFree, isOneCoin, isTuned } from './methods'
export type { Method, Hyper, HyperName, OneCoinMethod } from './methods'
export { runPosterior } from './run-posterior'
export type { TaskPosterior } from './run-posterior'
export { runEvaluate } from './run-evaluate'
export type { EvaluateResult } from './run-evaluate'

// Tallies (§2)
export { endorsementsOf, endorsementCodes, candidateIndex, candidateMap } from './endorsements'
export type { Endorsement } from './endorsements'
export { SeatIndex } from './seat-index'
export { buildTallies, cutAt, withGold, recordWidth, finalRecord, N_AT, CURRENT_AT, C_AT } from './tallies'
export type { TaskTallies } from './tallies'
export { socialAt, currentAnswer } from './social'

// Models (§3–§6)
export type { Aggregator, SeatReport } from './aggregator'
export { fitAggregator } from './fit'
export type { FitOptions } from './fit'
export { lnF, normalizeLog } from './ln-f'
export { oneCoinLogLik, temperAndNormalize, OneCoinAggregator } from './one-coin'
export { SeatTables } from './lgamma-tables'
export { fitReliabilities, reliabilityOf } from './reliability'
export type { Reliabilities } from './reliability'
export { betaPriors, priorMean, seatWeight } from './prior-means'
export type { BetaPriors } from './prior-means'
export { ConfusionAggregator, confusionCounts, lnConfusion } from './confusion'
export type { ConfusionCounts } from './confusion'
export { MajorityAggregator, majorityShares } from './majority'
export { MajorityFinalAggregator } from './majority-final'
export { BestSeatAggregator } from './best-seat'
export { GatedAggregator, passesGate } from './gated'
export { dawidSkene } from './dawid-skene'
export type { DsData, DsModel, DsResult } from './dawid-skene'
export { DsAggregator } from './ds-aggregator'
export { dawidSkenePerTask } from './dawid-skene-per-task'
export type { DsPerTaskData, DsPerTaskResult } from './dawid-skene-per-task'
export { DsPerTaskAggregator } from './ds-per-task'
export { firstDifferingTask, requireOneCandidateSet } from './candidate-set'
export { tieBreak, answerAt, scoredAnswer, NO_ANSWER, TIE_EPS } from './tie-break'
export { looInfluence } from './influence'
export type { SeatInfluence } from './influence'

// Scores and selection (§7)
export { accuracy, brier, brierOne, nll, topConfidence, NLL_CLIP } from './scores'
export type { Prediction } from './scores'
export { eceEw, eceEm, eceOf, equalWidthBins, equalMassBins, equalWidthBinsOf, equalMassBinsOf, confAndCorrect } from './ece'
export type { ReliabilityBin } from './ece'
export { isotonicFit, isotonicPredict, cvIsotonicRecalibrate } from './isotonic'
export type { IsotonicModel } from './isotonic'
export { stratifiedFolds } from './folds'
export { cvSelect, foldsOf, selectIndex, CV_TIE } from './cv-select'
export { selectHyper } from './select-hyper'
export type { CvResult } from './cv-select'
export { nestedCv, outOfFoldFits } from './nested-cv'
export type { NestedCvResult, OutOfFoldFits } from './nested-cv'

// Act-or-defer certificate over a fitted council (§8–§10; act-or-defer/index.ts explains the two levels)
export {
  ActOrDefer, buildActOrDefer, calibrationTasks, certifySplits, certifyTallies, driftOfTallies, evaluationSplit, fitCouncil,
  roundsOf, splitsReport, STATE_SOURCES, summarize, taskRounds
} from './act-or-defer'
export type {
  ActOrDeferConfig, CertificateInfo, CertifySplitsConfig, CertifySummary, CertifyTalliesConfig, CertifyTalliesResult, CouncilFitConfig,
  CouncilFits, Decisions, PreparedBatch, PreparedColumns, SplitsReport, SplitStats, StateSource, TaskRounds, TaskVerdict, TimedLabel
} from './act-or-defer'
export { BOUND_KINDS, DEFAULT_BOUND, DEFAULT_SPOT_RATE, defaultKs, hasTimeOrder, isSpotChecked, LAMBDA_GRID, minCalibrationFor, resolveFixedBudget, taskReason } from './certificate'
export type { BoundKind, BoundWhy, Budget, BudgetFigures, DeferReason, ResolvedBudget, RoundState, SeatDrift } from './certificate'
