/**
 * The Audit screen's data, one call: `audit.summary`. Everything is computed locally
 * from the database's labels (human labels; gold only where the import made it labels), JSON only.
 */
import type { AgreementView } from './team'

export interface ReliabilityBinView {
  /** Bin bounds on the top-label confidence. */
  lo: number
  hi: number
  count: number
  /** Mean confidence and accuracy of the bin's tasks (null for an empty bin). */
  confidence: number | null
  accuracy: number | null
}

export interface MethodRow {
  /** An engine method (majority, majority-final, best-seat, gated, shared, per-agent, tempered, confusion). */
  method: string
  /** Labeled tasks scored out of fold (nested CV, docs/engine.md §7). */
  n: number
  accuracy: number
  brier: number
  eceEw: number
  eceEm: number
  /** The 10 equal-width bins behind ECE_ew, for the reliability diagram. */
  bins: ReliabilityBinView[]
  /** A reference row (the baselines majority, majority-final, best-seat) rather than a candidate method. */
  reference: boolean
  /** Why the method could not run here (e.g. mixed candidate sets), else null. When set, n and the scores are 0 and `bins` is empty. */
  refused: string | null
}

export interface FrontierPoint {
  beta: number
  act: number
  accAct: number | null
  wa: number
  waOverBeta: number
  /** Mean of stopRound + 1 (deferred count T). */
  rnd: number
}

/**
 * The current fit's own verdicts, as it made them: the figures the queue and the refit notice
 * show, beside the held-out split evaluation, which scores a fit of half the random labels instead.
 */
export interface LiveFitFigures {
  fitId: string
  /** Tasks the fit decided (those without a human label when it ran). */
  decided: number
  acted: number
  /** acted / decided (0 when it decided none). */
  act: number
  /** Mean of stopRound + 1 over its decided tasks, a deferred task counting T — as `rnd` of a split. */
  rnd: number
  /** The budget β the fit resolved; null when it resolved none (no certificate). */
  beta: number | null
}

export interface ActOrDeferView {
  /** The current fit's own figures; null without a decided fit. */
  live: LiveFitFigures | null
  /** How it was measured, e.g. "10 seeded 50/50 splits of the 312 random labels". */
  protocol: string
  /** Metrics at the current budget (mean over splits). */
  current: FrontierPoint | null
  /** β sweep. */
  frontier: FrontierPoint[]
  /** Why nothing could be measured (too few random labels…), else null. */
  reason: string | null
}

/** A seat's Laplace reliability over label time, in bins of equally many labels (docs/engine.md §9). */
export interface DriftChart {
  /** More than half of the labels share one time: no order, no chart (points empty). */
  noTimeOrder: boolean
  /** One per bin: its last label's time, the seat's r on the bin, and the bin's tasks the seat moved in. */
  points: { at: string; reliability: number; tasks: number }[]
  /** Where §9's recent window begins (null: no recent window). */
  recentFrom: string | null
}

export interface SeatAuditRow {
  seat: string
  model: string | null
  reliability: number | null
  weight: number | null
  /** Endorsements on labeled tasks the reliability was fitted on. */
  evidence: number
  adversarial: boolean
  /** The current fit's drift line (§9); `noTimeOrder`: the label times give no order, so no verdict. */
  drift: { recent: number; rest: number; diff: number; floor: number; flagged: boolean; noTimeOrder: boolean } | null
  /** The seat's reliability over label time (the fit's labels). */
  driftChart: DriftChart
  /**
   * P(seat endorses column | truth row) over `confusionCandidates`, from the seat's +1 endorsements on the labeled
   * tasks with that candidate set; a row of zeros: no endorsement on tasks with that truth. Null: none on that set.
   */
  confusion: number[][] | null
}

export interface ReviewerRow {
  reviewer: string
  random: number
  escalation: number
  /** Undone (superseded) labels. */
  undone: number
  /** Calibrate draws made for this login, and those it skipped or let expire (capped; docs/team.md). */
  draws: number
  skips: number
}

export interface AuditSummary {
  fitId: string | null
  /** The method the console decides with: the current fit's, else the settings' (before any fit). */
  methodInUse: string
  labeledTasks: number
  randomLabels: number
  methods: MethodRow[]
  actOrDefer: ActOrDeferView
  seats: SeatAuditRow[]
  /** Candidate order of every seat's confusion matrix (the most common candidate set among labeled tasks). */
  confusionCandidates: string[]
  reviewers: ReviewerRow[]
  /** Agreement between reviewers on the tasks several labeled. */
  agreement: AgreementView
  computedAt: string
}
