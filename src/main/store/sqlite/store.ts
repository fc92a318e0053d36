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
} from '../types'
import { checkActor } from '../validate'
import { auditTail } from './audit'
import { toStoreError, type Sql } from './connection'
import { latestFit, saveDecisions, saveFit } from './fits'
import { abandonImport, beginImport, findImportBySha, publishImport, writeImportBatch } from './imports'
import { getTaskSummary, liveLabels, recordLabel, undoLabel } from './labels'
import { getSettings, setSettings } from './settings'
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
  const write = async <T>(topics: Topic[], actor: Actor | null, fn: (now: string) => T): Promise<WriteResult<T>> => {
    try {
      live()
      if (meta.readonly) throw new StoreError('internal', 'the store was opened read-only')
      if (actor !== null) checkActor(actor)
      const now = meta.now().toISOString()
      return { value: q.write(() => fn(now)), topics }
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
      write(['imports'], null, (now) => writeImportBatch(q, now, importId, batch)),
    publishImport: (importId, actor) =>
      write(['imports', 'tasks', 'audit'], actor, (now) => publishImport(q, now, importId, actor)),
    abandonImport: (importId) => write(['imports'], null, (now) => abandonImport(q, now, importId)),
    findImportBySha: (sha256) => read(() => findImportBySha(q, sha256)),

    recordLabel: (input, actor) =>
      write(['labels', 'tasks', 'audit'], actor, (now) => recordLabel(q, now, input, actor)),
    undoLabel: (input, actor) => write(['labels', 'tasks', 'audit'], actor, (now) => undoLabel(q, now, input, actor)),
    liveLabels: (taskId) => read(() => liveLabels(q, taskId)),
    getTaskSummary: (taskId) => read(() => getTaskSummary(q, taskId)),

    saveFit: (input, actor) => write(['fits', 'audit'], actor, (now) => saveFit(q, now, input, actor)),
    saveDecisions: (fitId, rows, actor) =>
      write(['decisions', 'fits', 'audit'], actor, (now) => saveDecisions(q, now, fitId, rows, actor)),
    latestFit: () => read(() => latestFit(q)),

    auditTail: (limit) => read(() => auditTail(q, limit)),
    close: async () => {
      if (closed) return
      closed = true
      try {
        q.db.close()
      } catch (e) {
        throw toStoreError(e)
      }
    }
  }
}
