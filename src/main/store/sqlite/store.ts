/**
 * The SQLite `Store`: each method runs one synchronous transaction and returns a resolved (or
 * rejected) promise. The clock is read once per operation so every row a write produces carries
 * the same time. Driver errors are mapped to StoreError here, at the boundary.
 */
import {
  StoreError,
  type Actor,
  type MigrationReport,
  type Store,
  type Topic,
  type WriteResult
} from '../contract'
import { checkActor } from '../validate'
import { toStoreError, type Sql } from './connection'
import { appendDecisionPage } from './fits'
import { abandonImport, beginImport, findImportBySha, listImports, publishImport, writeImportBatch } from './imports'
import { facets, filteredLabels, filteredTasks, queuePage } from './queue'
import { existingTasks, saveTallies, seatModels, talliesOf, tallyPage, tasksWithoutTallies } from './tallies'
import { importTallyPage, saveTallyPacks, tallyPack, tallySources } from './tally-packs'
import { auditTail, labelCounts } from '../ops/audit'
import { taskDetail } from '../ops/detail'
import { currentFit, finishDecisions, latestDecidedFitId, latestFit, listFits, requireFit, rollbackFit, saveFit } from '../ops/fits'
import { importLabels } from '../ops/label-import'
import { getTaskSummary, liveLabels, recordLabel, undoLabel } from '../ops/labels'
import { recentLabels, releaseTask, reserveTask } from '../ops/reservations'
import { getSettings, setSettings } from '../ops/settings'
import { awaitingAdjudicationPlan, blindTasksPlan, drawPlan, effectiveLabelsPlan, votesPlan } from '../ops/team'
import { SQLITE } from './dialect'
import { runPlan } from './plan-driver'
import { counts, dataVersion, integrityCheck, schemaVersion } from './status'

export type SqliteStoreMeta = {
  path: string
  readonly: boolean
  migration: MigrationReport | null
  now: () => Date
}

export function createSqliteStore(q: Sql, meta: SqliteStoreMeta): Store {
  let closed = false

  const live = (): void => {
    if (closed) throw new StoreError('internal', 'the store is closed')
  }
  const read = async <T>(fn: () => T): Promise<T> => {
    try {
      live()
      return q.read(fn)
    } catch (e) {
      throw toStoreError(e)
    }
  }
  /** `mode`: staged (need not survive a power cut on its own) or uncheckpointed (connection.ts). */
  const write = async <T>(topics: Topic[], actor: Actor | null, fn: (now: string) => T, mode: 'staged' | 'uncheckpointed' | null = null): Promise<WriteResult<T>> => {
    try {
      live()
      if (meta.readonly) throw new StoreError('internal', 'the store was opened read-only')
      if (actor !== null) checkActor(actor)
      const now = meta.now().toISOString()
      const run = () => fn(now)
      return { value: mode === 'staged' ? q.writeStaged(run) : mode === 'uncheckpointed' ? q.writeUncheckpointed(run) : q.write(run), topics }
    } catch (e) {
      throw toStoreError(e)
    }
  }

  return {
    info: () =>
      read(() => ({
        backend: 'sqlite' as const,
        path: meta.path,
        schemaVersion: schemaVersion(q),
        readonly: meta.readonly,
        migration: meta.migration
      })),
    counts: () => read(() => counts(q)),
    dataVersion: () => read(() => dataVersion(q)),
    integrityCheck: () => read(() => integrityCheck(q)),

    getSettings: () => read(() => runPlan(q, getSettings())),
    setSettings: (patch, actor) => write(['settings', 'audit'], actor, (now) => runPlan(q, setSettings(now, patch, actor))),

    beginImport: (input, actor) => write(['imports'], actor, (now) => beginImport(q, now, input, actor)),
    writeImportBatch: (importId, batch) =>
      write(['imports'], null, (now) => writeImportBatch(q, now, importId, batch), 'staged'),
    publishImport: (importId, actor, opts) =>
      write(['imports', 'tasks', 'labels', 'audit'], actor, (now) => publishImport(q, now, importId, actor, opts)),
    abandonImport: (importId) => write(['imports'], null, (now) => abandonImport(q, now, importId)),
    findImportBySha: (sha256) => read(() => findImportBySha(q, sha256)),

    recordLabel: (input, actor) =>
      write(['labels', 'tasks', 'audit'], actor, (now) => runPlan(q, recordLabel(SQLITE, now, input, actor))),
    undoLabel: (input, actor) => write(['labels', 'tasks', 'audit'], actor, (now) => runPlan(q, undoLabel(SQLITE, now, input, actor))),
    liveLabels: (taskId) => read(() => runPlan(q, liveLabels(SQLITE, taskId))),
    getTaskSummary: (taskId) => read(() => runPlan(q, getTaskSummary(SQLITE, taskId))),

    saveFit: (input, actor) => write(['fits', 'audit'], actor, (now) => runPlan(q, saveFit(SQLITE, now, input, actor))),
    // Invisible until finished: no topic changes (the fit's running count is not shown as news).
    appendDecisionPage: (fitId, page) => write([], null, () => appendDecisionPage(q, fitId, page), 'staged'),
    finishDecisions: (fitId, actor) => write(['decisions', 'fits', 'audit'], actor, (now) => runPlan(q, finishDecisions(SQLITE, now, fitId, actor)), 'uncheckpointed'),
    latestFit: () => read(() => runPlan(q, latestFit(SQLITE))),

    auditTail: (limit) => read(() => runPlan(q, auditTail(limit))),

    existingTasks: (taskIds) => read(() => existingTasks(q, taskIds)),
    tallyPage: (after, limit) => read(() => tallyPage(q, after, limit)),
    tallySources: () => read(() => tallySources(q)),
    importTallyPage: (importId, after, limit) => read(() => importTallyPage(q, importId, after, limit)),
    tallyPack: (importId, part) => read(() => tallyPack(q, importId, part)),
    // Derived data no screen shows: no topic changes.
    saveTallyPacks: (importId, packs) => write([], null, () => saveTallyPacks(q, importId, packs)),
    tasksWithoutTallies: (limit) => read(() => tasksWithoutTallies(q, limit)),
    talliesOf: (taskIds) => read(() => talliesOf(q, taskIds)),
    seatModels: () => read(() => seatModels(q)),
    saveTallies: (rows, actor) => write(['tasks', 'audit'], actor, (now) => saveTallies(q, now, rows, actor)),
    effectiveLabels: () => read(() => runPlan(q, effectiveLabelsPlan(SQLITE))),
    queuePage: (query) => read(() => queuePage(q, meta.now().toISOString(), query)),
    filteredTasks: (filter, after, limit) => read(() => filteredTasks(q, meta.now().toISOString(), filter, after, limit)),
    filteredLabels: (filter, after, limit) => read(() => filteredLabels(q, meta.now().toISOString(), filter, after, limit)),
    facets: () => read(() => facets(q)),
    taskDetail: (taskId) => read(() => runPlan(q, taskDetail(SQLITE, meta.now().toISOString(), taskId))),
    drawUnlabeled: (input) => read(() => runPlan(q, drawPlan(input, runPlan(q, latestDecidedFitId(SQLITE)), SQLITE))),
    reserveTask: (taskId, actor, ttlMs) => write(['tasks', 'audit'], actor, (now) => runPlan(q, reserveTask(SQLITE, now, taskId, actor, ttlMs))),
    releaseTask: (taskId, actor) => write(['tasks', 'audit'], actor, (now) => runPlan(q, releaseTask(SQLITE, now, taskId, actor))),
    recentLabels: (limit) => read(() => runPlan(q, recentLabels(SQLITE, limit))),
    labelCounts: () => read(() => runPlan(q, labelCounts())),
    awaitingAdjudication: (query) => read(() => runPlan(q, awaitingAdjudicationPlan(query, SQLITE))),
    blindTasks: (query) => read(() => runPlan(q, blindTasksPlan(query, SQLITE))),
    votes: () => read(() => runPlan(q, votesPlan(SQLITE))),
    importLabels: (input, actor) =>
      write(['imports', 'labels', 'tasks', 'audit'], actor, (now) => runPlan(q, importLabels(SQLITE, now, input, actor))),
    listImports: (limit) => read(() => listImports(q, limit)),
    listFits: (limit) => read(() => runPlan(q, listFits(SQLITE, limit))),
    getFit: (fitId) => read(() => runPlan(q, requireFit(SQLITE, fitId))),
    currentFit: () => read(() => runPlan(q, currentFit(SQLITE))),
    rollbackFit: (fitId, actor) => write(['fits', 'decisions', 'audit'], actor, (now) => runPlan(q, rollbackFit(SQLITE, now, fitId, actor))),

    close: async () => {
      if (closed) return
      closed = true
      try {
        q.payCheckpoint()
        q.db.close()
      } catch (e) {
        throw toStoreError(e)
      }
    }
  }
}
