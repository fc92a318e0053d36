/** The report's sections, one per part of the audit summary (the Audit screen's order). */
import type { ActOrDeferView, AgreementView, AuditSummary, FrontierPoint, KappaView, LiveFitFigures, MethodRow, ReviewerRow, SeatAuditRow } from '../../../../shared/api'
import { driftSvg } from './drift'
import { shownLocation } from '../../../store'
import { confusionSvg, frontierSvg, reliabilitySvg, weightsSvg } from './svg'
import { esc, num, pct, table } from './text'

const figure = (svg: string, caption: string): string => `<figure>${svg}<figcaption>${caption}</figcaption></figure>`

/** `methodInUse`: the method the current fit decides with, marked in the table as the console marks it. */
export function methodsSection(methods: readonly MethodRow[], labeledTasks: number, methodInUse: string): string {
  const rows = methods.map((m) => {
    const inUse = m.method === methodInUse ? ' <span class="tag in-use">in use</span>' : ''
    const name = `${esc(m.method)}${m.reference ? ' <span class="note">(reference)</span>' : ''}${inUse}`
    if (m.refused !== null) return [name, '—', '—', '—', '—', '—', `<span class="note">refused: ${esc(m.refused)}</span>`]
    return [name, String(m.n), num(m.accuracy), num(m.brier), num(m.eceEw), num(m.eceEm), '']
  })
  const plots = methods.filter((m) => m.refused === null && m.n > 0).map((m) =>
    figure(reliabilitySvg(m), `${esc(m.method)}${m.method === methodInUse ? ' (in use)' : ''} · n = ${m.n} · ECE_ew ${num(m.eceEw)}`))
  return `<section id="methods"><h2>Methods</h2>
<p class="muted">Nested cross-validation (5 outer folds, hyperparameters re-selected inside each; docs/engine.md §7) over the ${labeledTasks} labeled tasks the label policy allows, scores pooled over all out-of-fold predictions. References: majority (round-0 votes), majority-final (each seat's final answer) and best-seat (the final answers of the seat with the most right on the training folds; a task it did not answer counts as wrong). In use: ${esc(methodInUse)}, the method the current fit decides with.</p>
${table(['method', 'n', 'accuracy', 'Brier', 'ECE_ew', 'ECE_em', ''], rows, [false, true, true, true, true, true, false], methods.map((m) => (m.method === methodInUse ? 'in-use' : '')))}
<h3>Reliability diagrams</h3><p class="muted">Accuracy against mean confidence per equal-width confidence bin, each point labelled with its bin's task count; dashed: perfect calibration.</p><div class="plots">${plots.join('\n')}</div></section>`
}

const pointRow = (label: string, p: FrontierPoint): string[] =>
  [label, num(p.beta, 2), pct(p.act), pct(p.accAct), num(p.wa), num(p.waOverBeta, 2), num(p.rnd, 2)]
const AOD_HEAD = ['', 'β', 'acted', 'accuracy when acting', 'wrong actions', 'of the budget β', 'mean stop round']
const AOD_NUMERIC = [false, true, true, true, true, true, true]

/** The current fit's own verdicts: what the console acts on now, beside the held-out split evaluation. */
function liveFit(live: LiveFitFigures | null, methodInUse: string): string {
  const head = '<div class="figures" id="live-fit"><h3>Live fit: what the console acts on now</h3>'
  if (live === null) return `${head}<p class="muted">No fit has decided the tasks yet.</p></div>`
  const budget = live.beta === null ? 'no certificate' : `β = ${num(live.beta, 2)}`
  return `${head}<p class="muted">The current fit (${esc(methodInUse)}, ${budget}) over the ${live.decided} tasks it decided (those without a human label when it ran). Their correctness is unknown, so only the acted share and the rounds.</p>
${table(['', 'decided', 'acted', 'mean stop round'], [['live fit', String(live.decided), `${pct(live.act)} (${live.acted})`, num(live.rnd, 2)]], [false, true, true, true])}</div>`
}

export function actOrDeferSection(a: ActOrDeferView, randomLabels: number, methodInUse: string): string {
  const split = '<div class="figures" id="split-eval"><h3>Held-out split evaluation: '
  const head = `<section id="act-or-defer"><h2>Act or defer</h2><div class="compare">${liveFit(a.live, methodInUse)}`
  if (a.reason !== null) return `${head}${split}not measured</h3><p class="muted">${esc(a.protocol)}.</p><p><strong>Not measured:</strong> ${esc(a.reason)}.</p></div></div></section>`
  const current = a.current === null ? '<p>No budget could be resolved on any split.</p>' : table(AOD_HEAD, [pointRow('held-out half', a.current)], AOD_NUMERIC)
  const why = a.current !== null && a.live !== null
    ? `<p class="muted" id="why-differ">The two differ because each split's fit and certificate see half the ${randomLabels} blind labels and are scored on blind-labeled tasks only; the live fit was certified on all of them and decides every task without a label.</p>`
    : ''
  const sweep = table(AOD_HEAD, a.frontier.map((p) => pointRow('', p)), AOD_NUMERIC)
  const plot = figure(frontierSvg(a.frontier, a.current?.beta ?? null), `Held-out split evaluation: means over the splits of the ${randomLabels} random labels. Acted share: share of scored tasks acted on; wrong actions: share acted on wrongly, which the certificate keeps below β; the vertical line marks the current budget.`)
  return `${head}${split}fits of half the blind labels, scored on the other half</h3><p class="muted">${esc(a.protocol)}.</p>${current}</div></div>${why}<h3>Risk–automation frontier (held-out split evaluation)</h3><div class="plots">${plot}</div>${sweep}</section>`
}

function driftCell(d: SeatAuditRow['drift']): string {
  if (d === null) return '—'
  if (d.noTimeOrder) return 'no time order (most labels share one time, docs/engine.md §9)'
  const text = `${num(d.recent)} recent vs ${num(d.rest)} (|Δ| ${num(Math.abs(d.diff))}, floor ${num(d.floor)})`
  return d.flagged ? `<span class="flag">drift</span> ${text}` : text
}

export function seatsSection(seats: readonly SeatAuditRow[], candidates: readonly string[], fitId: string | null): string {
  const rows = seats.map((s) => [
    esc(s.seat), s.model === null ? '—' : esc(s.model), num(s.reliability), s.weight === null ? '—' : `${s.weight < 0 ? '<span class="flag">' : ''}${num(s.weight)}${s.weight < 0 ? '</span>' : ''}`,
    String(s.evidence), s.adversarial ? '<span class="flag">adversarial</span>' : '', driftCell(s.drift)
  ])
  const weighted = seats.some((s) => s.weight !== null)
  const weights = weighted ? figure(weightsSvg(seats), 'Seat weight w_i = ln(μ_i / (1 − μ_i)); red: the seat counts against what it endorses.') : '<p>No fit has weighed the seats yet.</p>'
  const heat = seats.filter((s) => s.confusion !== null).map((s) =>
    figure(confusionSvg(s.seat, candidates, s.confusion as number[][]), esc(s.seat)))
  const drift = seats.map((s) => figure(driftSvg(s), `${esc(s.seat)}${s.drift?.flagged === true ? ' <span class="flag">drifting</span>' : ''}`))
  const set = candidates.length === 0 ? '' : `over the most common candidate set among labeled tasks: {${candidates.map(esc).join(', ')}}`
  return `<section id="seats"><h2>Seats</h2>
<p class="muted">${fitId === null ? 'No fit yet.' : `From fit ${esc(fitId)}`}; evidence = endorsements on the labeled tasks the fit used. Adversarial: reliability below 1/K (docs/engine.md §4); drift: recent 20 % of labels vs the rest beyond twice the bootstrap noise floor (§9).</p>
${table(['seat', 'model', 'reliability', 'weight', 'evidence', 'flag', 'drift'], rows, [false, false, true, true, true, false, false])}
<h3>Reliability over label time (the labels of the current fit)</h3><div class="plots">${drift.join('\n')}</div>
<h3>Weights</h3><div class="plots">${weights}</div>
<h3>Confusion</h3><p class="muted">P(seat endorses column | truth row) ${set}.</p><div class="plots">${heat.join('\n')}</div></section>`
}

/** Skipped draws and their share of the login's draws. */
export const skipShare = (r: Pick<ReviewerRow, 'draws' | 'skips'>): string => (r.draws === 0 ? '0' : `${r.skips} (${Math.round((100 * r.skips) / r.draws)} %)`)

export function reviewersSection(reviewers: readonly ReviewerRow[]): string {
  const rows = reviewers.map((r) => [esc(r.reviewer), String(r.random), String(r.escalation), String(r.undone), String(r.draws), skipShare(r)])
  const body =
    rows.length === 0
      ? '<p>No labels yet.</p>'
      : table(['reviewer', 'random (live)', 'escalation (live)', 'undone or replaced', 'Calibrate draws', 'skipped or expired'], rows, [false, true, true, true, true, true])
  return `<section id="reviewers"><h2>Labels by reviewer</h2>${body}</section>`
}

const kappaCells = (k: KappaView): string[] => [String(k.tasks), num(k.observed), num(k.expected), num(k.kappa)]

export function agreementSection(g: AgreementView): string {
  const head = `<section id="agreement"><h2>Agreement between reviewers</h2>
<p class="muted">Each reviewer's vote (their latest live label; an adjudicator's ruling is not a vote) on the tasks two or more reviewers labeled. κ = (P_o − P_e) / (1 − P_e): observed agreement P_o beyond chance agreement P_e; — when P_e = 1. Per pair: Cohen's κ over the tasks both labeled. Overall: Fleiss' κ over every such task, generalised to a varying number of reviewers per task (Gwet 2014; Fleiss 1971's κ when the number is fixed).</p>`
  if (g.overall === null) return `${head}<p>No task has labels from two reviewers yet.</p></section>`
  const o = g.overall
  const raters = o.minRaters === o.maxRaters ? String(o.minRaters) : `${o.minRaters}–${o.maxRaters}`
  const overall = table(['', 'tasks', 'P_o', 'P_e', "Fleiss' κ", 'reviewers per task'], [['all reviewers', ...kappaCells(o), raters]], [false, true, true, true, true, true])
  const pairs = table(['reviewer', 'reviewer', 'tasks', 'P_o', 'P_e', "Cohen's κ"], g.pairs.map((p) => [esc(p.a), esc(p.b), ...kappaCells(p)]), [false, false, true, true, true, true])
  return `${head}<h3>Overall</h3>${overall}<h3>Per pair</h3>${pairs}</section>`
}

/** `source` is the database's location: a server URL is shown without its password, since the file is shared. */
export function headerSection(a: AuditSummary, source: string): string {
  return `<header><h1>Arbiter audit</h1><p class="muted">${esc(shownLocation(source))} · computed ${esc(a.computedAt)} · fit ${a.fitId === null ? 'none' : esc(a.fitId)} · ${a.labeledTasks} labeled tasks (${a.randomLabels} random)</p></header>`
}
