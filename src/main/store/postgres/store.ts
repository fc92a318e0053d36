/**
 * The PostgreSQL `Store`: each method is one transaction on a pooled connection (connection.ts:
 * writes SERIALIZABLE and retried on a serialization failure, except the one-task writes —
 * reserve, release, label, undo — which lock the task's row first and run READ COMMITTED; reads
 * one REPEATABLE READ snapshot).
 * The clock is read once per operation so every row a write produces carries the same time, even
 * when the transaction is retried. Every write also bumps this store's data-version row and
 * NOTIFYs its topics, in the same transaction (status.ts, notify.ts). Driver errors are mapped to StoreError here, at the boundary.
 */
import type pg from 'pg'
import {
  StoreError,
  type Actor,
  type MigrationReport,
  type Store,
  type Topic,
  type WriteResult
} from '../contract'
import { checkActor } from '../validate'
import { toStoreError, transaction, type PgSql, type TransactionMode } from './connection'
import { appendDecisionPage } from './fits'
import { abandonImport, beginImport, findImportBySha, listImports, publishImport, writeImportBatch } from './imports'
import { ChangeListeners, notifyChange } from './notify'
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
import { POSTGRES } from './dialect'
import { runPlan } from './plan-driver'
import { bumpDataVersion, counts, dataVersion, integrityCheck, schemaVersion } from './status'

export type PostgresStoreMeta = {
  /** The connection URL without its password. */
  path: string
  readonly: boolean
  migration: MigrationReport | null
  now: () => Date
  /** This store's row in `data_versions`. */
  writer: string
}

export function createPostgresStore(pool: pg.Pool, meta: PostgresStoreMeta): Store {
  let closed = false
  const listeners = new ChangeListeners({ connectionString: pool.options.connectionString, connectionTimeoutMillis: 15_000 }, meta.writer)

  const live = (): void => {
    if (closed) throw new StoreError('internal', 'the store is closed')
  }
  const read = async <T>(fn: (q: PgSql) => Promise<T>): Promise<T> => {
    try {
      live()
      return await transaction(pool, 'read', fn)
    } catch (e) {
      throw toStoreError(e)
    }
  }
  /** `mode` 'task': fn must lock its task's row before anything else (connection.ts). */
  const write = async <T>(
    topics: Topic[],
    actor: Actor | null,
    fn: (q: PgSql, now: string) => Promise<T>,
    mode: Exclude<TransactionMode, 'read'> = 'write'
  ): Promise<WriteResult<T>> => {
    try {
      live()
      if (meta.readonly) throw new StoreError('internal', 'the store was opened read-only')
      if (actor !== null) checkActor(actor)
      const now = meta.now().toISOString()
      const value = await transaction(pool, mode, async (q) => {
        const v = await fn(q, now)
        await bumpDataVersion(q, meta.writer)
        await notifyChange(q, meta.writer, topics)
        return v
      })
      return { value, topics }
    } catch (e) {
      throw toStoreError(e)
    }
  }
  const nowIso = () => meta.now().toISOString()

  return {
    info: () =>
      read(async (q) => ({
        backend: 'postgres' as const,
        path: meta.path,
        schemaVersion: await schemaVersion(q),
        readonly: meta.readonly,
        migration: meta.migration
      })),
    counts: () => read((q) => counts(q)),
    dataVersion: () => read((q) => dataVersion(q, meta.writer)),
    listenChanges: (events) => {
      live()
      return listeners.listen(events)
    },
    integrityCheck: () => read((q) => integrityCheck(q)),

    getSettings: () => read((q) => runPlan(q, getSettings())),
    setSettings: (patch, actor) => write(['settings', 'audit'], actor, (q, now) => runPlan(q, setSettings(now, patch, actor))),

    beginImport: (input, actor) => write(['imports'], actor, (q, now) => beginImport(q, now, input, actor)),
    writeImportBatch: (importId, batch) => write(['imports'], null, (q, now) => writeImportBatch(q, now, importId, batch)),
    publishImport: (importId, actor, opts) =>
      write(['imports', 'tasks', 'labels', 'audit'], actor, (q, now) => publishImport(q, now, importId, actor, opts)),
    abandonImport: (importId) => write(['imports'], null, (q, now) => abandonImport(q, now, importId)),
    findImportBySha: (sha256) => read((q) => findImportBySha(q, sha256)),

    recordLabel: (input, actor) => write(['labels', 'tasks', 'audit'], actor, (q, now) => runPlan(q, recordLabel(POSTGRES, now, input, actor)), 'task'),
    undoLabel: (input, actor) => write(['labels', 'tasks', 'audit'], actor, (q, now) => runPlan(q, undoLabel(POSTGRES, now, input, actor)), 'task'),
    liveLabels: (taskId) => read((q) => runPlan(q, liveLabels(POSTGRES, taskId))),
    getTaskSummary: (taskId) => read((q) => runPlan(q, getTaskSummary(POSTGRES, taskId))),

    saveFit: (input, actor) => write(['fits', 'audit'], actor, (q, now) => runPlan(q, saveFit(POSTGRES, now, input, actor))),
    // Invisible until finished: no topic changes.
    appendDecisionPage: (fitId, page) => write([], null, (q) => appendDecisionPage(q, fitId, page)),
    finishDecisions: (fitId, actor) => write(['decisions', 'fits', 'audit'], actor, (q, now) => runPlan(q, finishDecisions(POSTGRES, now, fitId, actor))),
    latestFit: () => read((q) => runPlan(q, latestFit(POSTGRES))),

    auditTail: (limit) => read((q) => runPlan(q, auditTail(limit))),

    existingTasks: (taskIds) => read((q) => existingTasks(q, taskIds)),
    tallyPage: (after, limit) => read((q) => tallyPage(q, after, limit)),
    tallySources: () => read((q) => tallySources(q)),
    importTallyPage: (importId, after, limit) => read((q) => importTallyPage(q, importId, after, limit)),
    tallyPack: (importId, part) => read((q) => tallyPack(q, importId, part)),
    // Derived data no screen shows: no topic changes.
    saveTallyPacks: (importId, packs) => write([], null, (q) => saveTallyPacks(q, importId, packs)),
    tasksWithoutTallies: (limit) => read((q) => tasksWithoutTallies(q, limit)),
    talliesOf: (taskIds) => read((q) => talliesOf(q, taskIds)),
    seatModels: () => read((q) => seatModels(q)),
    saveTallies: (rows, actor) => write(['tasks', 'audit'], actor, (q, now) => saveTallies(q, now, rows, actor)),
    effectiveLabels: () => read((q) => runPlan(q, effectiveLabelsPlan(POSTGRES))),
    queuePage: (query) => read((q) => queuePage(q, nowIso(), query)),
    filteredTasks: (filter, after, limit) => read((q) => filteredTasks(q, nowIso(), filter, after, limit)),
    filteredLabels: (filter, after, limit) => read((q) => filteredLabels(q, nowIso(), filter, after, limit)),
    facets: () => read((q) => facets(q)),
    taskDetail: (taskId) => read((q) => runPlan(q, taskDetail(POSTGRES, nowIso(), taskId))),
    drawUnlabeled: (input) => read(async (q) => runPlan(q, drawPlan(input, await runPlan(q, latestDecidedFitId(POSTGRES)), POSTGRES))),
    reserveTask: (taskId, actor, ttlMs) => write(['tasks', 'audit'], actor, (q, now) => runPlan(q, reserveTask(POSTGRES, now, taskId, actor, ttlMs)), 'task'),
    releaseTask: (taskId, actor) => write(['tasks', 'audit'], actor, (q, now) => runPlan(q, releaseTask(POSTGRES, now, taskId, actor)), 'task'),
    recentLabels: (limit) => read((q) => runPlan(q, recentLabels(POSTGRES, limit))),
    labelCounts: () => read((q) => runPlan(q, labelCounts())),
    awaitingAdjudication: (query) => read((q) => runPlan(q, awaitingAdjudicationPlan(query, POSTGRES))),
    blindTasks: (query) => read((q) => runPlan(q, blindTasksPlan(query, POSTGRES))),
    votes: () => read((q) => runPlan(q, votesPlan(POSTGRES))),
    importLabels: (input, actor) =>
      write(['imports', 'labels', 'tasks', 'audit'], actor, (q, now) => runPlan(q, importLabels(POSTGRES, now, input, actor))),
    listImports: (limit) => read((q) => listImports(q, limit)),
    listFits: (limit) => read((q) => runPlan(q, listFits(POSTGRES, limit))),
    getFit: (fitId) => read((q) => runPlan(q, requireFit(POSTGRES, fitId))),
    currentFit: () => read((q) => runPlan(q, currentFit(POSTGRES))),
    rollbackFit: (fitId, actor) => write(['fits', 'decisions', 'audit'], actor, (q, now) => runPlan(q, rollbackFit(POSTGRES, now, fitId, actor))),

    close: async () => {
      if (closed) return
      closed = true
      try {
        await listeners.closeAll()
        await pool.end()
      } catch (e) {
        throw toStoreError(e)
      }
    }
  }
}
