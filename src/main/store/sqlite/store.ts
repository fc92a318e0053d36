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
import { auditTail } from './audit'
import { toStoreError, type Sql } from './connection'
import { appendDecisionPage, finishDecisions, latestDecidedFitId, latestFit, saveFit } from './fits'
import { currentFit, listFits, requireFit, rollbackFit } from './fit-history'
import { taskDetail } from './detail'
import { abandonImport, beginImport, findImportBySha, listImports, publishImport, writeImportBatch } from './imports'
import { importLabels } from './label-import'
import { labelCounts } from './label-counts'
import { getTaskSummary, liveLabels, recordLabel, undoLabel } from './labels'
import { facets, filteredLabels, filteredTasks, queuePage } from './queue'
import { recentLabels, releaseTask, reserveTask } from './reservations'
import { existingTasks, saveTallies, seatModels, talliesOf, tallyPage, tasksWithoutTallies } from './tallies'
import { importTallyPage, saveTallyPacks, tallyPack, tallySources } from './tally-packs'
import { getSettings, setSettings } from './settings'
import { awaitingAdjudicationPlan, blindTasksPlan, drawPlan, effectiveLabelsPlan, votesPlan } from '../team-reads'
import { LABELS } from './label-dialect'
import { runPlan } from './read-plan'
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

    getSettings: () => read(() => getSettings(q)),
    setSettings: (patch, actor) => write(['settings', 'audit'], actor, (now) => setSettings(q, now, patch, actor)),

    beginImport: (input, actor) => write(['imports'], actor, (now) => beginImport(q, now, input, actor)),
    writeImportBatch: (importId, batch) =>
      write(['imports'], null, (now) => writeImportBatch(q, now, importId, batch), 'staged'),
    publishImport: (importId, actor, opts) =>
      write(['imports', 'tasks', 'labels', 'audit'], actor, (now) => publishImport(q, now, importId, actor, opts)),
    abandonImport: (importId) => write(['imports'], null, (now) => abandonImport(q, now, importId)),
    findImportBySha: (sha256) => read(() => findImportBySha(q, sha256)),

    recordLabel: (input, actor) =>
      write(['labels', 'tasks', 'audit'], actor, (now) => recordLabel(q, now, input, actor)),
    undoLabel: (input, actor) => write(['labels', 'tasks', 'audit'], actor, (now) => undoLabel(q, now, input, actor)),
    liveLabels: (taskId) => read(() => liveLabels(q, taskId)),
    getTaskSummary: (taskId) => read(() => getTaskSummary(q, taskId)),

    saveFit: (input, actor) => write(['fits', 'audit'], actor, (now) => saveFit(q, now, input, actor)),
    // Invisible until finished: no topic changes (the fit's running count is not shown as news).
    appendDecisionPage: (fitId, page) => write([], null, () => appendDecisionPage(q, fitId, page), 'staged'),
    finishDecisions: (fitId, actor) => write(['decisions', 'fits', 'audit'], actor, (now) => finishDecisions(q, now, fitId, actor), 'uncheckpointed'),
    latestFit: () => read(() => latestFit(q)),

    auditTail: (limit) => read(() => auditTail(q, limit)),

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
    effectiveLabels: () => read(() => runPlan(q, effectiveLabelsPlan(LABELS))),
    queuePage: (query) => read(() => queuePage(q, meta.now().toISOString(), query)),
    filteredTasks: (filter, after, limit) => read(() => filteredTasks(q, meta.now().toISOString(), filter, after, limit)),
    filteredLabels: (filter, after, limit) => read(() => filteredLabels(q, meta.now().toISOString(), filter, after, limit)),
    facets: () => read(() => facets(q)),
    taskDetail: (taskId) => read(() => taskDetail(q, meta.now().toISOString(), taskId)),
    drawUnlabeled: (input) => read(() => runPlan(q, drawPlan(input, latestDecidedFitId(q), LABELS))),
    reserveTask: (taskId, actor, ttlMs) => write(['tasks', 'audit'], actor, (now) => reserveTask(q, now, taskId, actor, ttlMs)),
    releaseTask: (taskId, actor) => write(['tasks', 'audit'], actor, (now) => releaseTask(q, now, taskId, actor)),
    recentLabels: (limit) => read(() => recentLabels(q, limit)),
    labelCounts: () => read(() => labelCounts(q)),
    awaitingAdjudication: (query) => read(() => runPlan(q, awaitingAdjudicationPlan(query, LABELS))),
    blindTasks: (query) => read(() => runPlan(q, blindTasksPlan(query, LABELS))),
    votes: () => read(() => runPlan(q, votesPlan(LABELS))),
    importLabels: (input, actor) =>
      write(['imports', 'labels', 'tasks', 'audit'], actor, (now) => importLabels(q, now, input, actor)),
    listImports: (limit) => read(() => listImports(q, limit)),
    listFits: (limit) => read(() => listFits(q, limit)),
    getFit: (fitId) => read(() => requireFit(q, fitId)),
    currentFit: () => read(() => currentFit(q)),
    rollbackFit: (fitId, actor) => write(['fits', 'decisions', 'audit'], actor, (now) => rollbackFit(q, now, fitId, actor)),

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
