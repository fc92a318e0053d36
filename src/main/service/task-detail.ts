/**
 * The review screen's one call (`task.detail`): the transcript with every target resolved and what
 * each move counts as (docs/engine.md §2), and — unless blind — the engine's verdict under the current
 * fit: posterior, seat weights beside reliabilities, leave-one-seat-out influence (§6), per-round
 * posterior, social shares and bound, and the gap decomposition (§8.9). Gold (hidden truth) is shown
 * only once the task has a human label the caller may see (the sealed rule, sealed.ts).
 */
import type { CallContext, DecisionView, FlagView, LabelView, RoundView, SeatView, TaskDetail, TranscriptMove, Verdict, VoteUnit } from '../../shared/api'
import { defaultKs, endorsementsOf, looInfluence, minCalibrationFor, socialAt, tieBreak, type TaskTallies } from '../engine'
import { NO_CALIBRATION } from './fit/run-fit'
import type { DecisionRecord, FitRecord, FlagRecord, LabelRecord, Store, TaskDetailRecord } from '../store'
import { toTaskTallies, traceOf } from './fit/corpus'
import type { FitModel, ModelCache } from './fit/model'

export function labelView(l: LabelRecord): LabelView {
  return { id: l.id, taskId: l.taskId, label: l.label, source: l.source, reviewer: l.reviewer, at: l.at, note: l.note, supersedes: l.supersedes, adjudicated: l.adjudicated }
}

export function flagView(f: FlagRecord): FlagView {
  return { id: f.id, taskId: f.taskId, reviewer: f.reviewer, reason: f.reason, at: f.at }
}

function byCandidate(candidates: readonly string[], p: ArrayLike<number>): Record<string, number> {
  const out: Record<string, number> = {}
  candidates.forEach((c, g) => (out[c] = p[g]))
  return out
}

function transcript(rec: TaskDetailRecord): TranscriptMove[] {
  const t = rec.task
  const endorsements = endorsementsOf(traceOf(t))
  const index = new Map<string, number>()
  return t.moves.map((m, i) => {
    if (!index.has(m.id)) index.set(m.id, i)
    const ti = m.target === null ? undefined : index.get(m.target)
    const e = endorsements[i]
    return {
      id: m.id, index: i, round: m.round, seat: m.seat, model: t.models[m.seat] ?? null, force: m.force,
      answer: m.answer, target: m.target,
      targetSeat: ti === undefined ? null : t.moves[ti].seat,
      targetIndex: ti ?? null,
      endorsement: e === null ? null : { sign: e.sign, candidate: t.candidates[e.cand] },
      confidence: m.confidence, text: m.text
    }
  })
}

/** Deferrals that no council behaviour can avoid: the calibration set is too small for a certificate. */
const TOO_FEW_LABELS = new Set([NO_CALIBRATION, 'no-usable-k'])

/** The calibration set's size as the fit recorded it, and the fewest blind labels its bound needs. */
function calibrationNeed(fit: FitRecord): { size: number; needed: number } {
  const size = fit.certificate?.calibrationSize
  return { size: typeof size === 'number' ? size : 0, needed: minCalibrationFor(defaultKs(fit.bound)) }
}

function decisionView(d: DecisionRecord, threshold: number | null, fit: FitRecord): DecisionView {
  // The store gives all five figures or none: a partial decomposition would read as a false explanation.
  const why = d.why === null ? null : { ...d.why }
  return {
    fitId: d.fitId, decision: d.decision, spotCheck: d.spotCheck, answer: d.answer, stopRound: d.stopRound, gap: d.gap, threshold,
    why,
    reason: d.reason,
    calibration: d.reason !== null && TOO_FEW_LABELS.has(d.reason) ? calibrationNeed(fit) : null,
    decidedAt: d.decidedAt
  }
}

/** What a seat's vote is under `method`: the standing vote reads each seat's standing answer once (docs/engine.md §11). */
export function voteUnitOf(method: string): VoteUnit {
  return method === 'standing-vote' ? 'standing answer' : 'endorsement'
}

/**
 * The log-odds one vote of a seat adds to its candidate against each other candidate, under the
 * method's own likelihood: the standing vote's P(a_i | g) ∝ μ when a_i = g, else 1 − μ, so
 * ln(μ/(1 − μ)) = w_i at any K (docs/engine.md §11); the one-coin model spreads a wrong endorsement
 * over K − 1 alternatives, so ln(μ(K − 1)/(1 − μ)) (§3). Null when the method has no μ_i
 * (baselines, confusion) or the figure is not finite.
 */
export function voteEvidence(unit: VoteUnit, mu: number | undefined, K: number): number | null {
  if (mu === undefined) return null
  const e = unit === 'standing answer' ? Math.log(mu / (1 - mu)) : Math.log((mu * (K - 1)) / (1 - mu))
  return Number.isFinite(e) ? e : null
}

function verdictOf(rec: TaskDetailRecord, model: FitModel, fit: FitRecord): Verdict | null {
  if (rec.tallies === null) return null
  const t: TaskTallies = toTaskTallies(rec.tallies, model.seats, null)
  const agg = model.aggregator
  const p = agg.posteriorAt(t)
  const weights = agg.weights(t)
  const report = new Map(agg.seatReport(model.seats).map((s) => [s.seat, s]))
  const unit = voteUnitOf(fit.method)
  const influence = new Map(looInfluence(agg, t).map((x) => [x.seat, x]))
  const seats: SeatView[] = t.seatIds.map((seat) => {
    const r = report.get(seat)
    const inf = influence.get(seat)
    const reliability = r?.r ?? null
    return {
      seat, model: rec.task.models[seat] ?? null, reliability, evidence: r?.evidence ?? null,
      weight: weights[seat] ?? r?.weight ?? null,
      voteEvidence: voteEvidence(unit, r?.mu, t.K),
      adversarial: reliability !== null && reliability < 1 / t.K,
      seen: r?.seen ?? false,
      influence: { posterior: byCandidate(t.candidates, inf?.posterior ?? p), shift: inf?.shift ?? 0 }
    }
  })
  const d = rec.decision
  const rounds: RoundView[] = []
  const T = Math.max(model.T, t.R === 0 ? 1 : t.rounds[t.R - 1] + 1)
  for (let r = 0; r < T; r++) {
    const pr = agg.posteriorAt(t, r)
    rounds.push({
      round: r,
      posterior: byCandidate(t.candidates, pr),
      social: byCandidate(t.candidates, socialAt(t, r)),
      answer: t.candidates[tieBreak(pr, t.K, t.task, model.seed)],
      bound: d?.bound?.[r] ?? null,
      k: d?.k?.[r] ?? null
    })
  }
  return {
    fitId: fit.id, method: fit.method,
    voteUnit: seats.some((x) => x.voteEvidence !== null) ? unit : null,
    posterior: byCandidate(t.candidates, p),
    answer: t.candidates[tieBreak(p, t.K, t.task, model.seed)],
    seats, rounds,
    decision: d === null ? null : decisionView(d, model.threshold, fit),
    previous: rec.previousDecision === null ? null : { fitId: rec.previousDecision.fitId, decision: rec.previousDecision.decision }
  }
}

/**
 * `othersHidden`: the task is sealed for the caller (sealed.ts) — other reviewers' labels are left
 * out, and with them the gold and, in a blind view, the verdict: to this caller the task is unlabeled.
 * `drawn`: Calibrate drew the task for the caller, who has not labeled it since (drawn.ts) — blind
 * whichever view asks, until their label is committed.
 */
export async function taskDetail(store: Store, models: ModelCache, taskId: string, blind: boolean, ctx: CallContext, othersHidden: boolean, drawn = false): Promise<TaskDetail> {
  const rec = await store.taskDetail(taskId)
  const shown = (l: LabelRecord) => !othersHidden || l.reviewer === ctx.reviewer
  const labels = rec.liveLabels.filter(shown)
  const labeled = labels.length > 0
  const fit = await store.currentFit()
  // Blind (Calibrate): the verdict stays hidden until the task is labeled (docs/engine.md §10).
  const hide = (blind && !labeled) || drawn
  const verdict = hide || fit === null ? null : verdictOf(rec, await models.get(store, fit), fit)
  const state = rec.liveLabels.length > 0 ? 'human' : (rec.decision?.decision ?? null)
  const t = rec.task
  return {
    task: { id: t.id, question: t.question, group: t.group, candidates: t.candidates, createdAt: t.createdAt, version: t.version, importFile: t.fileName },
    state: hide ? null : state,
    gold: labeled && !hide ? rec.gold : null,
    moves: transcript(rec),
    verdict,
    blind: hide,
    labels: labels.map(labelView),
    labelLog: rec.labelLog.filter(shown).map(labelView),
    reservation: rec.reservation,
    reservedByOther: rec.reservation !== null && rec.reservation.sessionId !== ctx.sessionId,
    // A flag's reason may say what the council argued: on a task blind or sealed for the caller, only their own.
    flags: (await store.taskFlags(taskId)).filter((f) => !(hide || othersHidden) || f.reviewer === ctx.reviewer).map(flagView)
  }
}
