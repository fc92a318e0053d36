/**
 * Every operation of the `Store`, in ONE table: its kind of transaction, the topics a write
 * changes, whether its second argument is the actor, and — for every operation written once
 * (ops/) — its plan. build-store.ts makes the `Store` of either backend from this table; a backend
 * supplies only the operations without a plan (its bulk writes, and what only it can say:
 * status, the queue's search). The service takes a write's topics from here (`topicsOf`).
 */
import type { Dialect } from './ops/dialect'
import type { Plan } from './plan'
import type { Store, Topic, WriteResult } from './contract'
import { auditTail, labelCounts } from './ops/audit'
import { taskDetail } from './ops/detail'
import { canRedecideRows, currentFit, finishDecisions, fitStopRounds, indexDecisions, latestFit, listFits, requireFit, rollbackFit, saveFit } from './ops/fits'
import { budgetWhatIf, buildWhatIfFigures, countLabelsSince, saveWhatIfFigures } from './ops/what-if'
import { copyWhatIfFigures } from './ops/what-if-rows'
import { abandonOwnedImport, beginOwnedImport, publishOwnedImport, sweepDeadImports, type Owners } from './ops/import-owners'
import { findImportBySha, listImports } from './ops/imports'
import { importLabels } from './ops/label-import'
import { flagTask, filteredFlags, taskFlags } from './ops/flags'
import { reviewerLabels } from './ops/history'
import { getTaskSummary, liveLabels, recordLabel, undoLabel } from './ops/labels'
import { facets, filteredLabels, filteredTasks, queuePage } from './ops/queue'
import { recentLabels, releaseHold, releaseTask, reserveTask } from './ops/reservations'
import { calibrateDraw, drawCounts, openDrawOf, recordDraw } from './ops/draws'
import { getSettings, setSettings } from './ops/settings'
import { counts } from './ops/status'
import { importTallyPage, saveTallyPacks, saveTallies, seatModels, tallyPack, tallyPage, tallySources, tasksWithoutTallies } from './ops/tallies'
import { awaitingAdjudicationPlan, drawUnlabeledPlan, effectiveLabelsPlan, openDrawsPlan, sealedTasksPlan, votesPlan } from './ops/team'

/**
 * - `read`: one snapshot (SQLite's deferred read; PostgreSQL REPEATABLE READ READ ONLY);
 * - `write`: SQLite's immediate write; PostgreSQL SERIALIZABLE, retried on a serialization failure;
 * - `task`: a write about ONE task that locks its row first: PostgreSQL runs it READ COMMITTED
 *   (postgres/connection.ts says why), SQLite as any write;
 * - `staged`: a write of rows no one sees yet (SQLite: need not survive a power cut on its own);
 * - `finish`: a decide's finish (SQLite: its commit leaves the checkpoint to `close`).
 */
export type Tx = 'read' | 'write' | 'task' | 'staged' | 'finish'

/** Every method of the Store but its lifecycle (close, the change feed). */
export type OperationName = Exclude<keyof Store, 'close' | 'listenChanges'>

type Args<K extends OperationName> = Parameters<Store[K]>
/** What the operation itself returns (a write's value, without its topics). */
export type Value<K extends OperationName> = Awaited<ReturnType<Store[K]>> extends WriteResult<infer V> ? V : Awaited<ReturnType<Store[K]>>

export type Operation<K extends OperationName> = {
  tx: Tx
  /** The topics a write changes; null for a read. */
  topics: Topic[] | null
  /** The second argument is the actor (checked before the transaction; its audit row names it). */
  actor: boolean
  /** A backend's own operation takes the operation's time after its transaction's handle. */
  clock: boolean
  /** The operation written once; absent: each backend supplies it. Called again on each retry. */
  plan?: (d: Dialect, now: string, ...args: Args<K>) => Plan<Value<K>>
  /**
   * An import's step that takes, uses or releases its lock (ops/import-owners.ts): written once,
   * it runs its own transactions (of the kind `tx`) around the lock, instead of one plan.
   */
  owned?: (o: Owners, now: string, ...args: Args<K>) => Promise<Value<K>>
  /** The first argument is an import id: its transaction runs on that import's own connection, when it has one. */
  onImport?: boolean
  /** The first argument is a fit id whose decisions this operation publishes (Driver.decided). */
  decides?: boolean
}

const read = <K extends OperationName>(plan?: Operation<K>['plan']): Operation<K> => ({ tx: 'read', topics: null, actor: false, clock: false, plan })
const write = <K extends OperationName>(tx: Tx, topics: Topic[], actor: boolean, plan?: Operation<K>['plan'], clock = true): Operation<K> => ({ tx, topics, actor, clock, plan })
/** An import's step around its lock (see `owned`). */
const owned = <K extends OperationName>(topics: Topic[], actor: boolean, fn: Operation<K>['owned']): Operation<K> => ({ tx: 'write', topics, actor, clock: true, owned: fn })
/** A write of a backend's own that needs no time. */
const timeless = <K extends OperationName>(tx: Tx, topics: Topic[]): Operation<K> => write(tx, topics, false, undefined, false)

export const OPERATIONS: { [K in OperationName]: Operation<K> } = {
  info: read(),
  counts: read((d) => counts(d)),
  dataVersion: read(),
  integrityCheck: read(),
  getSettings: read(() => getSettings()),
  setSettings: write('write', ['settings', 'audit'], true, (_d, now, patch, actor) => setSettings(now, patch, actor)),

  // The staging steps touch only invisible rows; the publish makes them news. Each holds the import's lock.
  beginImport: owned(['imports'], true, (o, now, input, actor) => beginOwnedImport(o, now, input, actor)),
  writeImportBatch: { ...write('staged', ['imports'], false), onImport: true },
  publishImport: owned(['imports', 'tasks', 'labels', 'audit'], true, (o, now, importId, actor, opts) => publishOwnedImport(o, now, importId, actor, opts)),
  abandonImport: owned(['imports'], false, (o, now, importId) => abandonOwnedImport(o, now, importId)),
  sweepDeadImports: owned(['imports'], false, (o, _now, target) => sweepDeadImports(o, target)),
  findImportBySha: read((_d, _now, sha256) => findImportBySha(sha256)),
  existingTasks: read(),
  seatModels: read(() => seatModels()),
  importLabels: write('write', ['imports', 'labels', 'tasks', 'audit'], true, (d, now, input, actor) => importLabels(d, now, input, actor)),
  listImports: read((d, _now, limit) => listImports(d, limit)),

  recordLabel: write('task', ['labels', 'tasks', 'audit'], true, (d, now, input, actor) => recordLabel(d, now, input, actor)),
  undoLabel: write('task', ['labels', 'tasks', 'audit'], true, (d, now, input, actor) => undoLabel(d, now, input, actor)),
  liveLabels: read((d, _now, taskId) => liveLabels(d, taskId)),
  getTaskSummary: read((d, _now, taskId) => getTaskSummary(d, taskId)),
  recentLabels: read((d, _now, limit) => recentLabels(d, limit)),
  reviewerLabels: read((d, _now, query) => reviewerLabels(d, query)),
  countLabelsSince: read((_d, _now, since, until) => countLabelsSince(since, until)),
  effectiveLabels: read((d, _now, reviewersPerTask) => effectiveLabelsPlan(d, reviewersPerTask)),
  // The server's own record of what Calibrate drew: no screen shows it, no topic changes.
  recordDraw: write('write', [], true, (d, now, taskId, actor, ttlMs) => recordDraw(d, now, taskId, actor, ttlMs)),
  // A draw changes no screen but the caller's own Calibrate, which asked for it: no topic.
  calibrateDraw: write('write', [], true, (d, now, input, actor) => calibrateDraw(d, now, input, actor)),
  drawCounts: read(() => drawCounts()),
  openDrawOf: read(function* (d, _now, reviewer) {
    const r = yield* openDrawOf(d, reviewer)
    return r === undefined ? null : { reviewer: r.reviewer, sessionId: r.session_id, taskId: r.task_id, drawnAt: r.drawn_at, expiresAt: r.expires_at, labelId: r.label_id }
  }),

  saveFit: write('write', ['fits', 'audit'], true, (d, now, input, actor) => saveFit(d, now, input, actor)),
  // Invisible until finished: no topic changes (the fit's running count is not shown as news).
  appendDecisionPage: timeless('staged', []),
  redecideRows: timeless('staged', []),
  canRedecideRows: read((d, _now, fitId) => canRedecideRows(d, fitId)),
  // Still invisible: the table is no one's until the finish.
  indexDecisions: write('finish', [], false, (d, _now, fitId, index) => indexDecisions(d, fitId, index), false),
  finishDecisions: { ...write('finish', ['decisions', 'fits', 'audit'], true, (d, now, fitId, actor) => finishDecisions(d, now, fitId, actor)), decides: true },
  latestFit: read((d) => latestFit(d)),
  listFits: read((d, _now, limit) => listFits(d, limit)),
  getFit: read((d, _now, fitId) => requireFit(d, fitId)),
  currentFit: read((d) => currentFit(d)),
  budgetWhatIf: read((d, _now, input) => budgetWhatIf(d, input)),
  buildWhatIfFigures: read((d, _now, fitId) => buildWhatIfFigures(d, fitId)),
  // No topic: the figures answer exactly what the rows did, so nothing a screen shows changes.
  saveWhatIfFigures: write('write', [], false, (d, _now, fitId, figures) => saveWhatIfFigures(d, fitId, figures)),
  copyWhatIfFigures: write('write', [], false, (_d, _now, fitId, parentId, threshold) => copyWhatIfFigures(fitId, parentId, threshold)),
  fitStopRounds: read((d, _now, fitId) => fitStopRounds(d, fitId)),
  rollbackFit: write('write', ['fits', 'decisions', 'audit'], true, (d, now, fitId, actor) => rollbackFit(d, now, fitId, actor)),

  tallyPage: read((d, _now, after, limit) => tallyPage(d, after, limit)),
  tallySources: read(() => tallySources()),
  importTallyPage: read((d, _now, importId, after, limit) => importTallyPage(d, importId, after, limit)),
  tallyPack: read((_d, _now, importId, part) => tallyPack(importId, part)),
  // Derived data no screen shows: no topic changes.
  saveTallyPacks: write('write', [], false, (d, _now, importId, packs) => saveTallyPacks(d, importId, packs)),
  tasksWithoutTallies: read((d, _now, limit) => tasksWithoutTallies(d, limit)),
  loadTallies: read(),
  saveTallies: write('write', ['tasks', 'audit'], true, (_d, now, rows, actor) => saveTallies(now, rows, actor)),

  queuePage: read((d, now, query) => queuePage(d, now, query)),
  filteredTasks: read((d, now, filter, after, limit, viewer, drawnFor) => filteredTasks(d, now, filter, after, limit, viewer ?? null, drawnFor ?? null)),
  filteredLabels: read((d, now, filter, after, limit, viewer, drawnFor) => filteredLabels(d, now, filter, after, limit, viewer ?? null, drawnFor ?? null)),
  facets: read((d) => facets(d)),
  taskDetail: read((d, now, taskId) => taskDetail(d, now, taskId)),
  drawUnlabeled: read((d, _now, input) => drawUnlabeledPlan(input, d)),
  reserveTask: write('task', ['tasks', 'audit'], true, (d, now, taskId, actor, ttlMs, seenVersion) => reserveTask(d, now, taskId, actor, ttlMs, seenVersion)),
  releaseTask: write('task', ['tasks', 'audit'], true, (d, now, taskId, actor) => releaseTask(d, now, taskId, actor)),
  releaseHold: write('task', ['tasks', 'audit'], true, (d, now, taskId, actor) => releaseHold(d, now, taskId, actor)),

  auditTail: read((_d, _now, limit) => auditTail(limit)),
  labelCounts: read(() => labelCounts()),

  awaitingAdjudication: read((d, _now, query) => awaitingAdjudicationPlan(query, d)),
  sealedTasks: read((d, _now, query) => sealedTasksPlan(query, d)),
  votes: read((d, _now, reviewersPerTask) => votesPlan(d, reviewersPerTask)),
  openDraws: read((d, _now, query) => openDrawsPlan(query, d)),

  // A flag is not a label: it changes the task's row in the queue (its marker) and ends a hold.
  flagTask: write('task', ['tasks', 'audit'], true, (d, now, input, actor) => flagTask(d, now, input, actor)),
  taskFlags: read((d, _now, taskId) => taskFlags(d, taskId)),
  filteredFlags: read((d, now, filter, after, limit, viewer, drawnFor) => filteredFlags(d, now, filter, after, limit, viewer ?? null, drawnFor ?? null))
}

/** The topics these writes change, together (each once, in the order of the first to name it). */
export function topicsOf(...names: OperationName[]): Topic[] {
  return [...new Set(names.flatMap((n) => OPERATIONS[n].topics ?? []))]
}
