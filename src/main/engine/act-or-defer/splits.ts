import { hashMod } from '../hash'
import type { TaskTallies } from '../tallies'
import { certifyTallies } from './certify-tallies'
import type { CertifyTalliesConfig } from './certify-tallies'
import type { CertifySummary } from './types'

/**
 * The paper's evaluation protocol behind `certify --labeled F --splits N` (docs/formats.md; AoD §6):
 * N seeded random 50/50 splits of one labeled file; split i (0-based) puts a task on the
 * calibration side iff H(`${seed + i}:eval:${task}`) mod 2 = 0 and scores the rest. Only the split
 * moves with i: folds, ties, the D_mod split and λ = auto all keep `seed`.
 */
export function evaluationSplit<T extends { readonly task: string }>(tasks: readonly T[], i: number, seed: number): { calibration: T[]; scored: T[] } {
  const calibration: T[] = []
  const scored: T[] = []
  for (const t of tasks) (hashMod(`${seed + i}:eval:${t.task}`, 2) === 0 ? calibration : scored).push(t)
  return { calibration, scored }
}

/** One number per metric: the mean or the max over the splits where it is defined (null: none). */
export interface SplitStats {
  readonly act: number | null
  readonly accAct: number | null
  readonly wa: number | null
  readonly waOverBeta: number | null
}

/** docs/formats.md's closing `{"splits":…}` object. */
export interface SplitsReport {
  readonly act: number[]
  readonly accAct: (number | null)[]
  readonly wa: (number | null)[]
  readonly waOverBeta: (number | null)[]
  readonly mean: SplitStats
  readonly max: SplitStats
}

const KEYS = ['act', 'accAct', 'wa', 'waOverBeta'] as const

/** Per-split metrics, with their mean and per-split maximum (nulls — e.g. Acc|Act of a split that acted on nothing — are skipped). */
export function splitsReport(summaries: readonly CertifySummary[]): SplitsReport {
  const stat = (f: (v: number[]) => number): SplitStats => {
    const out: Record<string, number | null> = {}
    for (const key of KEYS) {
      const v = summaries.map((s) => s[key]).filter((x): x is number => x !== null)
      out[key] = v.length === 0 ? null : f(v)
    }
    return out as unknown as SplitStats
  }
  return {
    act: summaries.map((s) => s.act),
    accAct: summaries.map((s) => s.accAct),
    wa: summaries.map((s) => s.wa),
    waOverBeta: summaries.map((s) => s.waOverBeta),
    mean: stat((v) => v.reduce((a, b) => a + b, 0) / v.length),
    max: stat((v) => Math.max(...v))
  }
}

export interface CertifySplitsConfig extends Omit<CertifyTalliesConfig, 'calibration' | 'scored'> {
  /** The labeled file's tasks (gold ≥ 0 each). */
  readonly labeled: readonly TaskTallies[]
  readonly splits: number
}

/**
 * Runs the protocol: per split, the full calibrate-then-certify cycle (out-of-fold fits, deployed
 * fit, certificate, decisions) on its halves. `onSplit` sees each summary as it is ready (the CLI
 * streams its lines). Cost ≈ `splits` × `certifyTallies` on half the file.
 */
export function certifySplits(config: CertifySplitsConfig, onSplit?: (i: number, summary: CertifySummary) => void): { summaries: CertifySummary[]; report: SplitsReport } {
  const seed = config.seed ?? 0
  const summaries: CertifySummary[] = []
  for (let i = 0; i < config.splits; i++) {
    const { calibration, scored } = evaluationSplit(config.labeled, i, seed)
    const { summary } = certifyTallies({ ...config, seed, calibration, scored })
    summaries.push(summary)
    onSplit?.(i, summary)
  }
  return { summaries, report: splitsReport(summaries) }
}
