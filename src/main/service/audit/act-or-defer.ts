/**
 * Act-or-defer as measured on the database (docs/engine.md §8, AoD §6): the paper's
 * protocol — seeded 50/50 splits of the `random` labels (the only exchangeable sample, §10), the
 * council fitted and the certificate built on one half, the other half decided and scored — at the
 * budget of the settings, and a β sweep over the same bound tables (the risk–automation frontier).
 * Each split is exactly `certifySplits`'s (same halves, fits and certificate); the sweep only moves
 * 1 − α, so it reuses one prepared batch per split.
 */
import type { ActOrDeferView, EngineSettings, FrontierPoint } from '../../../shared/api'
import {
  buildActOrDefer, evaluationSplit, fitCouncil, MethodRefused, summarize,
  type Budget, type CertifySummary, type Method, type TaskTallies
} from '../../engine'

export const AUDIT_SPLITS = 10
/** β = 0.05, 0.10, …, 0.50 (built from integers so every β prints as itself). */
export const FRONTIER_BETAS: readonly number[] = Array.from({ length: 10 }, (_, i) => (i + 1) / 20)
/** The smallest k of 𝒦 (docs/engine.md §8). */
const SMALLEST_K = 128
/**
 * A calibration half of about n/2 keeps D_loc = 80 % of it (§8.4); the certificate can only act
 * when D_loc holds at least the smallest k = 128 neighbours, so n ≥ 2·128/0.8 = 320.
 */
export const MIN_RANDOM_LABELS = Math.ceil((2 * SMALLEST_K) / 0.8)

const mean = (v: readonly number[]): number => v.reduce((a, b) => a + b, 0) / v.length

/** Mean over splits; Acc|Act over the splits that acted at all (null when none did). */
function meanPoint(beta: number, s: readonly CertifySummary[]): FrontierPoint {
  const defined = (pick: (x: CertifySummary) => number | null) => s.map(pick).filter((x): x is number => x !== null)
  const accAct = defined((x) => x.accAct)
  return {
    beta,
    act: mean(s.map((x) => x.act)),
    accAct: accAct.length === 0 ? null : mean(accAct),
    wa: mean(defined((x) => x.wa)),
    waOverBeta: mean(defined((x) => x.waOverBeta)),
    rnd: mean(s.map((x) => x.rnd))
  }
}

export function describeBudget(b: Budget): string {
  return b.kind === 'absolute' ? `β = ${b.beta}` : b.kind === 'relative' ? `β = ${b.lambda}·ê_T` : 'λ = auto'
}

export interface SplitRun {
  current: CertifySummary
  frontier: CertifySummary[]
}

/** One split: fit and certify on its calibration half, decide the scored half at the budget and along the sweep. */
export function runSplit(random: readonly TaskTallies[], i: number, s: EngineSettings, pool: readonly TaskTallies[]): SplitRun {
  const { calibration, scored } = evaluationSplit(random, i, s.seed)
  const fits = fitCouncil({ method: s.method as Method, calibration, seed: s.seed, fitOptions: { pool, labels: random[0].candidates } })
  const aod = buildActOrDefer(fits, { state: s.state, options: { delta: s.delta, epsAct: s.epsAct }, bound: s.bound, spotRate: s.spotRate })
  const batch = aod.prepare(scored)
  const current = summarize(aod.decide(batch, s.budget), batch)
  const frontier = FRONTIER_BETAS.map((beta) => summarize(aod.decide(batch, { kind: 'absolute', beta }), batch))
  return { current, frontier }
}

export function actOrDeferView(
  random: readonly TaskTallies[], s: EngineSettings, pool: readonly TaskTallies[], onSplit: (done: number, total: number) => void = () => {}
): Omit<ActOrDeferView, 'live'> {
  const protocol =
    `${AUDIT_SPLITS} seeded 50/50 splits of the ${random.length} random labels (seed ${s.seed}): ${s.method} fitted and the certificate ` +
    `built on one half (${s.state} state, ${s.bound} bound, δ = ${s.delta}, ε_act = ${s.epsAct}), the other half decided and scored; budget ${describeBudget(s.budget)}`
  if (random.length < MIN_RANDOM_LABELS) {
    const reason =
      `too few random labels: ${random.length} of the ${MIN_RANDOM_LABELS} needed — each half of a 50/50 split must keep at least ` +
      `${SMALLEST_K} local neighbours after the smoother's 20 % share; label ${MIN_RANDOM_LABELS - random.length} more in Calibrate`
    return { protocol, current: null, frontier: [], reason }
  }
  const runs: SplitRun[] = []
  try {
    for (let i = 0; i < AUDIT_SPLITS; i++) {
      runs.push(runSplit(random, i, s, pool))
      onSplit(i + 1, AUDIT_SPLITS)
    }
  } catch (e) {
    if (e instanceof MethodRefused) return { protocol, current: null, frontier: [], reason: `${s.method} refused these labels: ${e.message}` }
    throw e
  }
  const frontier = FRONTIER_BETAS.map((beta, j) => meanPoint(beta, runs.map((r) => r.frontier[j])))
  // λ = auto resolves β per split and may find none feasible; the budget point averages the splits that had one.
  const betas = runs.map((r) => r.current.beta).filter((b): b is number => b !== null)
  // A declared β is the same on every split: keep it exact rather than a float mean of copies.
  const beta = betas.every((b) => b === betas[0]) ? betas[0] : mean(betas)
  const current = betas.length === 0 ? null : meanPoint(beta, runs.map((r) => r.current))
  const note = current === null ? '; λ = auto found no feasible budget on any split, so nothing acts at the current budget' : ''
  return { protocol: protocol + note, current, frontier, reason: null }
}
