/**
 * What a fit stores beside its decisions (the versioned calibration snapshot the console lists,
 * compares and rolls back): per-seat figures, the certificate's parameters and the exact label
 * sets it was fitted on (so `decide` can rebuild it, and the review screen can rebuild the model),
 * and metrics. Plain JSON only: non-finite numbers become null.
 */
import {
  accuracy, brier, driftOfTallies, eceEw, nll, scoredAnswer, validateHyper,
  type Aggregator, type CouncilFits, type Hyper, type Method, type Prediction, type SeatIndex, type TaskTallies
} from '../../engine'
import type { FitRecord, JsonObject, JsonValue } from '../../store'
import type { Corpus } from './corpus'

/** Deep copy with NaN / ±Infinity / undefined turned into null (the store refuses them). */
export function jsonSafe(v: unknown): JsonValue {
  if (v === null || v === undefined) return null
  if (typeof v === 'number') return Number.isFinite(v) ? v : null
  if (typeof v === 'string' || typeof v === 'boolean') return v
  if (ArrayBuffer.isView(v)) return Array.from(v as unknown as ArrayLike<number>, (x) => jsonSafe(x))
  if (Array.isArray(v)) return v.map(jsonSafe)
  if (typeof v === 'object') {
    const out: JsonObject = {}
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) if (x !== undefined && typeof x !== 'function') out[k] = jsonSafe(x)
    return out
  }
  return null
}

/** The K most labeled tasks have: "adversarial" (r_i < 1/K, docs/engine.md §4) is judged against it. */
export function referenceK(ks: Iterable<number>): number {
  const byK = new Map<number, number>()
  for (const K of ks) byK.set(K, (byK.get(K) ?? 0) + 1)
  let best = 2
  let n = -1
  for (const [k, c] of byK) if (c > n || (c === n && k < best)) [best, n] = [k, c]
  return best
}

/** Seat id → reliability, prior mean, weight and drift (§4, §6, §9), with models. */
export function seatFigures(agg: Aggregator, seats: SeatIndex, corpus: Corpus, labeled: readonly TaskTallies[], models: Record<string, string>, seed: number): JsonObject {
  const kRef = referenceK(labeled.length > 0 ? labeled.map((t) => t.K) : corpus.candidateCounts())
  const timed = labeled.map((t) => ({ tallies: t, time: Date.parse(corpus.labels.get(t.task)?.at ?? '') || 0 }))
  const drift = new Map(labeled.length === 0 ? [] : driftOfTallies(timed, { seed }).map((d) => [d.seat, d]))
  const rows = agg.seatReport(seats).map((s) => {
    const d = drift.get(s.seat)
    return {
      seat: s.seat,
      model: models[s.seat] ?? null,
      reliability: s.r,
      mu: s.mu ?? null,
      weight: s.weight ?? null,
      seen: s.seen,
      adversarial: s.r !== null && s.r < 1 / kRef,
      drift: d === undefined ? null : { recent: d.recent, rest: d.rest, diff: d.diff, floor: d.floor, flagged: d.flagged, noTimeOrder: d.noTimeOrder }
    }
  })
  return jsonSafe({ kRef, seats: rows }) as JsonObject
}

/** Out-of-fold scores of the deployed method on C (docs/engine.md §7): each task predicted by the fit that never saw it. */
export function outOfFoldScores(fits: CouncilFits): JsonObject | null {
  const preds: Prediction[] = []
  fits.calibration.forEach((t, i) => {
    const agg = fits.outOfFold[fits.fold[i]]
    if (agg === null) return
    const p = agg.posteriorAt(t)
    preds.push({ p, gold: t.gold, answer: scoredAnswer(agg, t, p, fits.seed) })
  })
  if (preds.length === 0) return null
  return jsonSafe({ n: preds.length, accuracy: accuracy(preds), brier: brier(preds), nll: nll(preds), eceEw: eceEw(preds) }) as JsonObject
}

/** The label sets a fit used, as [task, label] pairs (its certificate JSON keeps them). */
export function labelPairs(tasks: readonly TaskTallies[]): [string, string][] {
  return tasks.map((t) => [t.task, t.candidates[t.gold]])
}

export function readLabelPairs(v: JsonValue | undefined): [string, string][] {
  if (!Array.isArray(v)) return []
  return v.filter((p): p is [string, string] => Array.isArray(p) && typeof p[0] === 'string' && typeof p[1] === 'string')
}

/**
 * The hyperparameters a fit selected (deployed, and each non-empty out-of-fold part in fold order),
 * for a re-decide on the same labels to reuse rather than search again; null when what is stored is
 * not a valid set for the method (then the re-decide searches, with the same result).
 */
export function storedSelection(fit: FitRecord): { deployed: Hyper; outOfFold: Hyper[] } | null {
  const method = fit.method as Method
  const folds = fit.certificate?.outOfFoldHyper
  if (!Array.isArray(folds)) return null
  const candidates = [fit.hyperparameters, ...folds]
  try {
    for (const h of candidates) {
      if (h === null || typeof h !== 'object' || Array.isArray(h)) return null
      validateHyper(method, h as Hyper)
    }
  } catch (e) {
    if (e instanceof RangeError) return null
    throw e
  }
  const [deployed, ...outOfFold] = candidates as Hyper[]
  return { deployed, outOfFold }
}

/**
 * A fit's metrics with its decision counts (decided, acted, deferred, spotChecked, act). A decide
 * writes its decisions in pages after the fit row, so the counts are the fit's stored columns
 * (raised with each page), not part of its immutable metrics; fits from before the columns kept
 * them in the metrics, which are then returned as they are.
 */
export function metricsWithCounts(f: Pick<FitRecord, 'metrics' | 'decidedAt' | 'decisionCount' | 'deferredCount' | 'spotCount'>): JsonObject | null {
  if (f.metrics === null || f.decidedAt === null || f.deferredCount === null) return f.metrics
  const n = f.decisionCount
  const acted = n - f.deferredCount
  return { ...f.metrics, decided: n, acted, deferred: f.deferredCount, spotChecked: f.spotCount ?? 0, act: n === 0 ? 0 : acted / n }
}
