import { join } from 'node:path'
import {
  buildActOrDefer, buildTallies, evaluationSplit, fitCouncil, SeatIndex, STATE_SOURCES, summarize,
  type CertifySummary, type Decisions, type StateSource
} from '../../../src/main/engine'
import type { BoundKind } from '../../../src/main/engine/certificate'
import { convertMmluPro } from '../../../src/main/sim/mmlu-pro'
import { markdown, modalChoice } from '../aggregation/table'
import { HOEFFDING_SOCIAL_025 } from '../certificate-reference'
import { DATA_DIR, type EvalSection } from '../section'

/**
 * The real-data check of the act-or-defer certificate (docs/engine.md §8): the five-model
 * MMLU-Pro council (one round, converted by its PROVENANCE.md rules), 10 seeded 50/50 splits
 * (docs/formats.md's `certify --labeled --splits` protocol: calibration iff H(`${seed+i}:eval:${task}`)
 * mod 2 = 0), the CLI's hyperparameter policy (per-agent, CV-selected on the calibration half and
 * re-selected inside every out-of-fold fit), and a β sweep for both state sources. One fit per
 * split serves both states and every β: bounds do not depend on β.
 * Both bounds (docs/engine.md §8.7): binomial (the default) and hoeffding (AoD as published).
 * Asserted: mean WA ≤ β at every β, state and bound; the default state acts in every split at β = 0.30;
 * and at β = 0.25 (social) the binomial bound acts on ≥ 0.20 of tasks on average and ≥ 2× the
 * hoeffding row, with WA ≤ β in every split, and the hoeffding row equals the output of the code before
 * the binomial bound (certificate-reference.ts) to 1e-12.
 */

const SEED = 0
const SPLITS = 10
/** 0.10, 0.15, …, 0.40, built from integers so each β prints and compares exactly. */
const BETAS = Array.from({ length: 7 }, (_, i) => (i + 2) / 20)
const MUST_ACT_BETA = 0.3
const BOUNDS: readonly BoundKind[] = ['binomial', 'hoeffding']
const COMPARE_BETA = 0.25

interface Cell {
  summaries: CertifySummary[]
  /** Per split that deferred every task: why (the contract's reason, or the best bound's shortfall). */
  deferrals: string[]
}

/** Why a split deferred everything: a budget-level reason, or the best task's bound against 1 − α. */
export function deferral(d: Decisions): string {
  if (d.budget.reason !== null) return d.budget.reason
  let best = d.tasks[0]
  for (const t of d.tasks) if (t.gap !== null && (best.gap === null || t.gap < best.gap)) best = t
  const w = best.why
  if (w === null || best.gap === null || d.budget.alpha === null) return 'no bound'
  const L = 1 - d.budget.alpha - best.gap
  return `max L ${L.toFixed(4)} < 1−α ${(1 - d.budget.alpha).toFixed(4)} (q̂ ${w.qhat.toFixed(3)}, b ${w.bias.toFixed(3)}, c ${w.conc.toFixed(3)})`
}

const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length
const fmt = (x: number | null): string => (x === null ? '—' : x.toFixed(3))
/** mean / per-split max over the splits where the metric is defined. */
function meanMax(xs: readonly (number | null)[]): string {
  const v = xs.filter((x): x is number => x !== null)
  return v.length === 0 ? '—' : `${fmt(mean(v))} / ${fmt(Math.max(...v))}`
}

export const certificate: EvalSection = {
  name: 'certificate',
  summary: 'act-or-defer β sweep on the MMLU-Pro council, 10 splits, social and posterior states',
  async run() {
    const t0 = performance.now()
    const { traces } = convertMmluPro(join(DATA_DIR, 'mmlu-pro-llm-outputs'))
    const seats = new SeatIndex()
    const all = traces.map((t) => buildTallies(t, seats))
    const cells = new Map<string, Cell>()
    const key = (s: StateSource, beta: number, bound: BoundKind): string => `${s}@${beta}@${bound}`
    for (const s of STATE_SOURCES) for (const b of BETAS) for (const bound of BOUNDS) cells.set(key(s, b, bound), { summaries: [], deferrals: [] })
    const hypers = []
    const errors: number[] = []
    const topCell: number[] = []
    let calSize = 0
    for (let i = 0; i < SPLITS; i++) {
      const { calibration, scored } = evaluationSplit(all, i, SEED)
      calSize += calibration.length / SPLITS
      const fits = fitCouncil({ method: 'per-agent', calibration, seed: SEED })
      hypers.push(fits.deployed.hyper)
      for (const state of STATE_SOURCES) for (const bound of BOUNDS) {
        const aod = buildActOrDefer(fits, { state, bound })
        if (state === 'social' && bound === 'binomial') {
          errors.push(aod.certificate.finalRoundError)
          // Out-of-fold accuracy of Ŷ where every answering seat agrees (the best social state).
          const unanimous = aod.calibration.filter((c) => c.states[0].p1 === 1)
          topCell.push(mean(unanimous.map((c) => c.z[0])))
        }
        const batch = aod.prepare(scored)
        for (const beta of BETAS) {
          const d = aod.decide(batch, { kind: 'absolute', beta })
          const summary = summarize(d, batch)
          const cell = cells.get(key(state, beta, bound))!
          cell.summaries.push(summary)
          if (summary.act === 0) cell.deferrals.push(`split ${i}: ${deferral(d)}`)
        }
      }
    }

    const lines = [
      `### MMLU-Pro council: ${all.length} tasks, 5 seats, 1 round; ${SPLITS} splits of ≈ ${calSize.toFixed(0)} calibration / ${(all.length - calSize).toFixed(0)} scored`,
      '',
      `per-agent, CV-selected: ${modalChoice(hypers)}; out-of-fold final-round error ê_T ${fmt(mean(errors))}; ` +
        `unanimous answers right ${fmt(mean(topCell))} (out-of-fold, calibration side)`,
      '',
      '"deferred everything": in how many splits, and for the first of them why — the budget-level reason, or the best',
      'bound max_t L_t against 1 − α with its parts q̂ (neighbourhood accuracy), b (bias) and c (concentration).',
      'Act, Acc|Act, WA and WA/β as mean / per-split max over the splits; "> β" counts splits whose WA exceeds β.',
      ''
    ]
    const head = ['state', 'bound', 'β', 'Act', 'Acc|Act', 'WA', 'WA/β', '> β', 'deferred everything']
    const rows: string[][] = []
    let ok = true
    const failures: string[] = []
    for (const state of STATE_SOURCES) for (const bound of BOUNDS) {
      for (const beta of BETAS) {
        const { summaries, deferrals } = cells.get(key(state, beta, bound))!
        const wa = summaries.map((s) => s.wa as number)
        const over = wa.filter((w) => w > beta).length
        const why = deferrals.length === 0 ? '' : `${deferrals.length}/${SPLITS}, first ${deferrals[0]}`
        rows.push([state, bound, beta.toFixed(2), meanMax(summaries.map((s) => s.act)), meanMax(summaries.map((s) => s.accAct)), meanMax(wa), meanMax(summaries.map((s) => s.waOverBeta)), `${over}`, why])
        if (!(mean(wa) <= beta)) failures.push(`FAILED: ${state} ${bound} β ${beta}: mean WA ${mean(wa).toFixed(4)} > β`)
        if (state === 'social' && bound === 'binomial' && beta === MUST_ACT_BETA) {
          const idle = summaries.filter((s) => s.act === 0).length
          if (idle > 0) failures.push(`FAILED: social β ${beta}: acted on nothing in ${idle}/${SPLITS} splits`)
        }
      }
    }
    lines.push(...markdown(head, rows), '')
    const binomial = cells.get(key('social', COMPARE_BETA, 'binomial'))!.summaries
    const hoeffding = cells.get(key('social', COMPARE_BETA, 'hoeffding'))!.summaries
    const actB = mean(binomial.map((s) => s.act))
    const actH = mean(hoeffding.map((s) => s.act))
    lines.push(`social, β = ${COMPARE_BETA}: binomial mean Act ${actB.toFixed(3)}, hoeffding ${actH.toFixed(3)} (×${(actB / actH).toFixed(2)})`)
    if (!(actB >= 0.2 && actB >= 2 * actH)) failures.push(`FAILED: binomial mean Act ${actB.toFixed(4)} at β = ${COMPARE_BETA} is below 0.20 or 2× hoeffding's ${actH.toFixed(4)}`)
    const overB = binomial.filter((s) => !((s.wa as number) <= COMPARE_BETA)).length
    if (overB > 0) failures.push(`FAILED: binomial WA > β = ${COMPARE_BETA} in ${overB} splits`)
    const drift = hoeffding.map((s, i) => Math.max(Math.abs(s.act - HOEFFDING_SOCIAL_025[i].act), Math.abs((s.wa as number) - HOEFFDING_SOCIAL_025[i].wa)))
    const worst = Math.max(...drift)
    lines.push(`hoeffding row against the code before the binomial bound: largest difference ${worst.toExponential(2)} (≤ 1e-12 asserted)`)
    if (!(worst <= 1e-12)) failures.push(`FAILED: the hoeffding row moved from its reference by ${worst}`)
    if (failures.length > 0) ok = false
    lines.push(...failures)
    lines.push(
      `asserted: mean WA ≤ β at every β, state and bound; the social state acts in every split at β = ${MUST_ACT_BETA.toFixed(2)}; ` +
        `at β = ${COMPARE_BETA} binomial Act ≥ 0.20 and ≥ 2× hoeffding, WA ≤ β in every split; hoeffding as before to 1e-12 — ${ok ? 'ok' : 'FAILED'}`
    )
    lines.push(`duration ${((performance.now() - t0) / 1000).toFixed(1)} s`)
    return { ok, lines }
  }
}
