/**
 * Recalibrate and re-decide (docs/engine.md §7, §8, §10) — the `fit` and `decide` use cases:
 * - C = tasks whose effective label is `random` (the certificate's exchangeable sample); the
 *   aggregator also trains on `escalation` labels unless the policy says `random` only;
 * - the council is fitted (CV-selected hyperparameters, out-of-fold states on C), the certificate
 *   built, and every task WITHOUT a human label decided under the budget (default β = 0.20) and
 *   the bound (default binomial; stored with the fit);
 * - stored as a new fit (previous fits kept) and its decisions, so the queue switches atomically;
 * - a `decide` (another budget for a fit) copies the fit's rows with new verdicts instead, when
 *   nothing the fit read has changed since (redecide-copy.ts).
 * With fewer than 2 `random` labels there is no certificate: every task is deferred
 * ("no-calibration"), its best guess from whatever the labels allow (majority-final when there are none).
 */
import type { BoundKind, BudgetSetting, EngineSettings } from '../../../shared/api'
import {
  buildActOrDefer, fitAggregator, fitCouncil, isTuned, MethodRefused, socialAt, taskReason, tieBreak,
  type ActOrDefer, type Aggregator, type BoundWhy, type CouncilFitConfig, type Method, type TaskTallies
} from '../../engine'
import { useWasmSha256 } from '../../engine/hash'
import { DecisionPageBuilder, WhatIfBuilder, type Actor, type DecisionPage, type DecisionWhy, type EffectiveLabel, type FitRecord, type JsonObject, type Store } from '../../store'
import { loadCorpus, type Corpus } from './corpus'
import { DecisionsThread } from './decisions-thread'
import { inputsDigest, redecideByCopy } from './redecide-copy'
import { prepareWhatIf, type WhatIfSource } from './what-if'
import { jsonSafe, labelPairs, outOfFoldScores, readLabelPairs, seatFigures, storedSelection } from './record'

export type FitProgress = (p: { phase: string; done: number; total: number; message: string | null }) => void

export interface FitRequest {
  settings: EngineSettings
  /** A re-decide: the same labels and settings as this fit, another budget, and another bound when given. */
  redecide: { fit: FitRecord; budget: BudgetSetting; bound?: BoundKind } | null
  /**
   * A re-decide copies the parent's rows with new verdicts when it can (redecide-copy.ts); false
   * decides every task again (the tests and the bench compare both paths).
   */
  copyRows?: boolean
  /**
   * Where a writer thread can open the same SQLite database (decisions-thread.ts): given, a decide
   * of at least `THREADED_FROM` tasks writes its pages there while this thread decides the next.
   */
  writer?: { dbLocation: string; nativeBinding: string | null; threadedFrom?: number }
  /** Waits, between two steps, while reviewers are busy (jobs/give-way.ts); absent: never waits. */
  giveWay?: () => Promise<void>
}

/** Below this many tasks to decide, a thread's start costs more than the overlap saves. */
export const THREADED_FROM = 50_000

export const NO_CALIBRATION = 'no-calibration'
/** Out-of-fold states need a training part for every fold: below 2 random labels there is no certificate. */
export const MIN_CALIBRATION = 2

/** The label sets a fit trains on: C (random) and the extra labeled tasks the policy allows. */
function labelSets(corpus: Corpus, labeled: readonly number[], req: FitRequest): { C: TaskTallies[]; extra: TaskTallies[] } {
  if (req.redecide !== null) {
    const cert = req.redecide.fit.certificate ?? {}
    const sets = (cert.labels ?? {}) as JsonObject
    const pick = (pairs: [string, string][]) =>
      pairs.flatMap(([id, label]) => {
        const i = corpus.indexOf(id)
        if (i < 0) return []
        const t = corpus.task(i)
        return [{ ...t, gold: t.candidates.indexOf(label) }]
      })
    return { C: pick(readLabelPairs(sets.calibration)), extra: pick(readLabelPairs(sets.extra)) }
  }
  const C: TaskTallies[] = []
  const extra: TaskTallies[] = []
  // The labeled tasks, in the corpus's (task-id) order: folds follow it.
  for (const i of labeled) {
    const t = corpus.task(i)
    const l = corpus.labels.get(t.task) as EffectiveLabel
    if (t.gold < 0) continue
    if (l.source === 'random') C.push(t)
    else if (req.settings.labelPolicy === 'all') extra.push(t)
  }
  return { C, extra }
}

/** Where the labeled tasks are in the corpus, ascending. */
function labeledPositions(corpus: Corpus): number[] {
  const at: number[] = []
  for (const id of corpus.labels.keys()) {
    const i = corpus.indexOf(id)
    if (i >= 0) at.push(i)
  }
  return at.sort((a, b) => a - b)
}

/** The Dawid–Skene methods fit EM over every task (the pool); the others never read it, so it is not made for them. */
const usesPool = (method: Method): boolean => method === 'ds-em' || method === 'ds-em-full'

/** The model without a certificate: trained on the extra labels if it can be, else majority-final. */
function fallbackModel(method: Method, extra: TaskTallies[], corpus: Corpus, seed: number): Aggregator {
  if (extra.length > 0 || !isTuned(method)) {
    try {
      return fitAggregator(method, extra, null, seed, { pool: usesPool(method) ? corpus.tasks : undefined, labels: extra[0]?.candidates })
    } catch (e) {
      if (!(e instanceof MethodRefused)) throw e
    }
  }
  // With no label at all: the seats' answers as they stand at the task's last round (docs/engine.md §6's
  // majority-final), the debate's own outcome, not its opening round.
  return fitAggregator('majority-final', [], null, seed)
}

/** A re-decide keeps the fit's settings, its bound included (Hoeffding for a fit made before the setting), unless told another. */
function settingsOf(req: FitRequest): EngineSettings {
  if (req.redecide === null) return req.settings
  const stored = (req.redecide.fit.certificate?.settings ?? {}) as Partial<EngineSettings>
  return { ...req.settings, ...stored, budget: req.redecide.budget, bound: req.redecide.bound ?? req.redecide.fit.bound }
}

export async function fitAndDecide(store: Store, req: FitRequest, actor: Actor, progress: FitProgress = () => {}): Promise<FitRecord> {
  const t0 = Date.now()
  // Every decided task is hashed for its spot-check (docs/engine.md §10): the faster SHA-256, same bits.
  await useWasmSha256()
  const s = settingsOf(req)
  const pause = req.giveWay ?? noPause
  // Taken before the corpus is read: a label given while it loads makes a later copy's check fail.
  const inputs = await inputsDigest(store)
  if (req.redecide !== null && req.copyRows !== false) {
    const copied = await redecideByCopy(store, req.redecide.fit, s, inputs, actor, progress, pause)
    if (copied !== null) {
      const threshold = ((await store.getFit(copied)).certificate?.resolved as JsonObject | null | undefined)?.threshold
      const source = typeof threshold === 'number' ? { parentId: req.redecide.fit.id, threshold } : null
      return finishFit(store, copied, req.redecide.fit.decisionCount, actor, progress, pause, () => source)
    }
  }
  progress({ phase: 'loading', done: 0, total: 1, message: 'reading tallies and labels' })
  const corpus = await loadCorpus(store, actor)
  const method = (req.redecide?.fit.method ?? s.method) as Method
  // Made before the label sets, so that a calibration task is the pool's own object: the EM
  // aggregator knows its pool tasks by identity (their posteriors are EM's own).
  const pool = usesPool(method) ? corpus.tasks : undefined
  const positions = labeledPositions(corpus)
  const { C, extra } = labelSets(corpus, positions, req)
  const labeled = new Set(positions)
  const fitOptions = { pool, labels: (C[0] ?? extra[0])?.candidates }

  const n = corpus.size - labeled.size
  // Started before the fit, so that the writer thread's start and its connection overlap it.
  const thread = await threadFor(store, req.writer, n)
  let fitId: string
  const figures = new WhatIfBuilder()
  try {
    progress({ phase: 'fitting', done: 0, total: n, message: `${C.length} calibration labels, ${extra.length} others` })
    // A re-decide fits the same labels with the same settings: the fit's selected hyperparameters
    // are what the search would pick again, so it is skipped (most of a fit's cost at a million tasks).
    const selected = req.redecide === null ? null : storedSelection(req.redecide.fit)
    const { deployed, aod, certificate, oof } = fitModel(corpus, method, C, extra, fitOptions, s, selected)
    certificate.settings = jsonSafe(s)
    certificate.labels = { calibration: labelPairs(C), extra: labelPairs(extra) }

    const trained = [...C, ...extra]
    // The decision counts are not known yet: they are the fit's stored columns (metricsWithCounts).
    const metrics = jsonSafe({
      tasks: corpus.size,
      decided: n,
      humanLabeled: corpus.labels.size,
      calibrationLabels: C.length,
      otherLabels: extra.length,
      labelPolicy: s.labelPolicy,
      outOfFold: oof,
      reason: (certificate.resolved as JsonObject | null)?.reason ?? null,
      fitMs: Date.now() - t0,
      inputs: inputs.digest
    }) as JsonObject
    const reliabilities = seatFigures(deployed, corpus.seats, corpus, trained, await store.seatModels(), s.seed)
    const fit = await store.saveFit(
      { method: deployed.method, hyperparameters: jsonSafe(deployed.hyper) as JsonObject, reliabilities, certificate, metrics, parentFitId: req.redecide?.fit.id ?? null, bound: s.bound },
      actor
    )
    // Decided and written a page at a time (a task's verdict depends on the certificate only): a
    // million verdicts with their per-round states would not fit in memory beside the tallies. The
    // pages stay out of sight until the finish makes them current together.
    fitId = fit.value.id
    // Each page feeds the what-if figures before it is handed on (its buffers may move to the thread).
    const append = (page: DecisionPage) => {
      figures.addPage(page)
      return thread === null ? store.appendDecisionPage(fitId, page) : thread.append(fitId, page)
    }
    await decidePages(corpus, labeled, n, (page) => decisionPage(page, deployed, aod, s), append, progress, pause)
  } finally {
    await thread?.close()
  }
  return finishFit(store, fitId, n, actor, progress, pause, () => ({ figures: figures.finish() }))
}

const noPause = async (): Promise<void> => {}

/** A fit's rows are all written: its queue indexes, then the finish that makes it current. */
async function finishFit(
  store: Store, fitId: string, n: number, actor: Actor, progress: FitProgress, pause: () => Promise<void>, whatIf: () => WhatIfSource
): Promise<FitRecord> {
  progress({ phase: 'saving', done: n, total: n, message: null })
  // One queue index per transaction: a label waits behind one build, not all four.
  for (let i = 0, left = 1; left > 0; i++) {
    await pause()
    left = (await store.indexDecisions(fitId, i)).value
  }
  await pause()
  await store.finishDecisions(fitId, actor)
  await pause()
  await prepareWhatIf(store, fitId, whatIf())
  return store.getFit(fitId)
}

/** The council fitted on C (and the extra labels) with its certificate; without enough random labels, the fallback model. */
function fitModel(
  corpus: Corpus, method: Method, C: TaskTallies[], extra: TaskTallies[], fitOptions: { pool: TaskTallies[] | undefined; labels: readonly string[] | undefined }, s: EngineSettings,
  selected: CouncilFitConfig['selected']
): { deployed: Aggregator; aod: ActOrDefer | null; certificate: JsonObject; oof: JsonObject | null } {
  let deployed: Aggregator
  let aod: ActOrDefer | null = null
  let certificate: JsonObject
  let oof: JsonObject | null = null
  try {
    if (C.length >= MIN_CALIBRATION) {
      const fits = fitCouncil({ method, hyper: null, selected, calibration: C, extraLabeled: extra, seed: s.seed, fitOptions })
      aod = buildActOrDefer(fits, { state: s.state, options: { delta: s.delta, epsAct: s.epsAct }, bound: s.bound, spotRate: s.spotRate })
      deployed = fits.deployed
      oof = outOfFoldScores(fits)
      const { beta, alpha, lambda, reason } = aod.resolveBudget(s.budget)
      certificate = jsonSafe({ ...aod.info(), budget: s.budget, bound: s.bound, resolved: { beta, alpha, lambda, reason, threshold: alpha === null ? null : 1 - alpha } }) as JsonObject
    } else {
      deployed = fallbackModel(method, [...C, ...extra], corpus, s.seed)
      certificate = jsonSafe({ method: deployed.method, hyper: deployed.hyper, state: s.state, seed: s.seed, T: corpus.roundCount, calibrationSize: C.length, budget: s.budget, bound: s.bound, resolved: { beta: null, alpha: null, lambda: null, reason: NO_CALIBRATION, threshold: null } }) as JsonObject
    }
  } catch (e) {
    if (e instanceof MethodRefused || e instanceof RangeError) throw Object.assign(new Error(`fit refused: ${e.message}`), { code: 'bad_input' })
    throw e
  }
  return { deployed, aod, certificate, oof }
}

/**
 * Every unlabeled task, a page at a time: each page made from the packs, decided, and written
 * while the next one is decided (by the writer thread on SQLite; on PostgreSQL the server writes
 * on its own core). At most one page is being written: memory stays two pages.
 */
async function decidePages(
  corpus: Corpus, labeled: ReadonlySet<number>, total: number, rowsOf: (page: TaskTallies[]) => DecisionPage,
  append: (rows: DecisionPage) => Promise<unknown>, progress: FitProgress, pause: () => Promise<void>
): Promise<void> {
  let done = 0
  let writing: Promise<unknown> = Promise.resolve()
  for (let at = 0; at < corpus.size; ) {
    progress({ phase: 'deciding', done, total, message: null })
    await pause()
    const page: TaskTallies[] = []
    for (; at < corpus.size && page.length < DECIDE_PAGE; at++) if (!labeled.has(at)) page.push(corpus.task(at))
    if (page.length === 0) break
    done += page.length
    const rows = rowsOf(page)
    await writing
    writing = append(rows)
    writing.catch(() => undefined) // awaited before the next page, or below
  }
  await writing
}

/** A writer thread for a large decide on SQLite (decisions-thread.ts); null: write on this thread. */
async function threadFor(store: Store, writer: FitRequest['writer'], tasks: number): Promise<DecisionsThread | null> {
  if (writer === undefined || tasks < (writer.threadedFrom ?? THREADED_FROM)) return null
  if ((await store.info()).backend !== 'sqlite') return null
  return new DecisionsThread(writer)
}

/**
 * Tasks decided and written per step. Small enough that a page's rows die young and cross to the
 * writer thread cheaply: larger pages made a million-task decide slower, with the thread and
 * without it.
 */
const DECIDE_PAGE = 2_000

/**
 * One decision row per scored task, in columns: the verdict, the full-trace posterior, the
 * disagreement. Read straight from the certificate's columns (no object per task or round: a
 * million tasks' worth of them was a good part of a decide's time, in the collector).
 */
function decisionPage(scored: TaskTallies[], agg: Aggregator, aod: ActOrDefer | null, s: EngineSettings): DecisionPage {
  const page = new DecisionPageBuilder(scored.length)
  const batch = aod === null ? null : aod.prepareColumns(scored)
  const verdicts = aod === null || batch === null ? null : aod.decideColumns(batch, s.budget)
  // The page copies what it is given, so one scratch of each length serves every row.
  const scratch = new Map<number, { p: Float64Array; shares: Float64Array }>()
  const bound: (number | null)[] = []
  const ks: (number | null)[] = []
  for (let i = 0; i < scored.length; i++) {
    const t = scored[i]
    let own = scratch.get(t.K)
    if (own === undefined) scratch.set(t.K, (own = { p: new Float64Array(t.K), shares: new Float64Array(t.K) }))
    const p = agg.posteriorAt(t, undefined, -1, own.p)
    const disagreement = socialDisagreement(t, own.shares)
    if (batch === null || verdicts === null) {
      page.add({
        taskId: t.task, act: false, spotCheck: false, answer: t.candidates[tieBreak(p, t.K, t.task, s.seed)], candidates: t.candidates, posterior: p,
        stopRound: null, gap: null, bound: null, disagreement, k: null, why: null, reason: NO_CALIBRATION
      })
      continue
    }
    const { table, rounds } = batch
    const T = table.T
    const usable = table.usable[i] === 1
    const tau = verdicts.decided.stop[i]
    const best = verdicts.decided.best[i]
    bound.length = T
    ks.length = T
    for (let r = 0; r < T; r++) {
      bound[r] = usable ? finiteOrNull(table.L[i * T + r]) : null
      ks[r] = usable ? table.k[i * T + r] : null
    }
    const o = i * T + best
    page.add({
      roundAnswers: rounds.answers.subarray(i * T, i * T + T), peak: best < 0 ? null : finiteOrNull(table.L[o]),
      taskId: t.task, act: tau >= 0, spotCheck: batch.spotCheck[i] === 1, answer: t.candidates[rounds.answers[i * T + (tau >= 0 ? tau : T - 1)]],
      candidates: t.candidates, posterior: p, stopRound: tau >= 0 ? tau : null, gap: finiteOrNull(verdicts.decided.gap[i]), bound, disagreement, k: ks,
      why: best < 0 ? null : whyOf({ round: best, k: table.k[o], n: table.neighbours[o], qhat: table.qhat[o], bias: table.bias[o], conc: table.conc[o] }),
      reason: taskReason(table, i, verdicts.budget.reason)
    })
  }
  return page.finish()
}

const finiteOrNull = (x: number | null): number | null => (x === null || !Number.isFinite(x) ? null : x)

/**
 * The decomposition as the store keeps it: all five figures finite, or none (a partial one would
 * mislead); with the neighbourhood size `n` when the bound reports one (binomial, docs/engine.md §8.7).
 */
function whyOf(w: BoundWhy & { readonly n?: number }): DecisionWhy | null {
  const { round, k, qhat, bias, conc, n } = w
  if (!(Number.isFinite(round) && Number.isFinite(k) && Number.isFinite(qhat) && Number.isFinite(bias) && Number.isFinite(conc))) return null
  return n !== undefined && Number.isSafeInteger(n) && n >= 0 ? { round, k, n, qhat, bias, conc } : { round, k, qhat, bias, conc }
}

/** 1 − the social state's top share at the task's last round (the queue's disagreement order). */
function socialDisagreement(t: TaskTallies, scratch: Float64Array): number {
  const p = socialAt(t, undefined, scratch)
  let top = 0
  for (let g = 0; g < t.K; g++) if (p[g] > top) top = p[g]
  return 1 - top
}
