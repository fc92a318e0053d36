/**
 * Imports (docs/architecture.md, "Imports"): rows are written in batches under an import id that stays
 * invisible, then published by flipping that one import row. The batches are each backend's bulk
 * write (sqlite/imports.ts, postgres/imports.ts); begin, publish, abandon, the sweep and the reads
 * are here, and who owns a staged import (its live lock) is import-owners.ts. The import row is
 * locked by every step that changes it, so two clients writing, publishing or sweeping one import
 * queue up behind each other instead of both acting on a stale state.
 */
import {
  IMPORT_RECORD_KINDS,
  LABEL_SOURCES,
  StoreError,
  type Actor,
  type BeginImportInput,
  type ImportBatch,
  type ImportBatchResult,
  type ImportCounts,
  type ImportRecord,
  type LiveImport,
  type PreparedTask,
  type PublishOptions,
  type SeatInput,
  type SweepTarget
} from '../contract'
import type { Shell } from '../../../shared/vocabularies'
import { isPrepared, prepareTask } from '../prepared-task'
import { rowOf, rowsOf, run, type Plan } from '../plan'
import { EMPTY_IMPORT_COUNTS, IMPORT_COLUMNS, toImport, type ImportRow } from '../rows'
import { checkId, checkInt, checkOneOf, checkSeat, checkSha256 } from '../validate'
import { appendAudit } from './audit'
import type { Dialect } from './dialect'
import { recordGoldLabels } from './label-import'

function* getImport(d: Dialect, id: string, lock = false): Plan<ImportRecord | null> {
  const row = yield* rowOf<ImportRow>(`SELECT ${IMPORT_COLUMNS} FROM imports WHERE id = ?${lock ? d.forUpdate() : ''}`, id)
  return row === undefined ? null : toImport(row)
}

function* requireImport(d: Dialect, id: string, lock = false): Plan<ImportRecord> {
  checkId(id, 'importId')
  const imp = yield* getImport(d, id, lock)
  if (imp === null) throw new StoreError('not_found', `no import ${id}`, { importId: id })
  return imp
}

export function* requireStaged(d: Dialect, id: string, verb: string): Plan<ImportRecord> {
  const imp = yield* requireImport(d, id, true)
  if (imp.state !== 'staged') {
    throw new StoreError('conflict', `cannot ${verb} import ${id}: it is ${imp.state}`, { importId: id, state: imp.state })
  }
  return imp
}

export function checkBeginInput(input: BeginImportInput): void {
  checkId(input.fileName, 'fileName')
  checkSha256(input.sha256, 'sha256')
  checkOneOf(input.kind, IMPORT_RECORD_KINDS, 'kind')
}

/** The row of a new import `id`, whose lock the caller already holds (import-owners.ts). */
export function* beginImport(d: Dialect, now: string, id: string, input: BeginImportInput, actor: Actor): Plan<ImportRecord> {
  checkBeginInput(input)
  yield* run(
    `INSERT INTO imports (id, file_name, sha256, kind, state, created_at, updated_at, counts, created_by, session_id, shell)
     VALUES (?, ?, ?, ?, 'staged', ?, ?, ?, ?, ?, ?)`,
    id, input.fileName, input.sha256, input.kind, now, now,
    JSON.stringify(EMPTY_IMPORT_COUNTS), actor.reviewer, actor.sessionId, actor.shell
  )
  return yield* requireImport(d, id)
}

export const takenOver = (importId: string, why: string): StoreError =>
  new StoreError('conflict', `import ${importId} was taken over: ${why}; nothing was published, import the file again`, { importId })

/**
 * `own`: this store holds the import's lock. Checked here, in the publish's transaction, with the
 * row locked: a sweep that found the import dead (its lock free) deleted it or is waiting for
 * this row, so the publish and the sweep cannot both succeed.
 */
export function* publishImport(d: Dialect, now: string, importId: string, actor: Actor, opts: PublishOptions, own: boolean): Plan<ImportRecord> {
  checkId(importId, 'importId')
  const current = yield* getImport(d, importId, true)
  if (own && current === null) throw takenOver(importId, 'another process found it dead and swept it')
  if (own && current !== null && current.state !== 'staged') throw takenOver(importId, `it was ${current.state} by another process`)
  if (!own && current !== null && current.state === 'staged') throw takenOver(importId, 'this process does not hold its lock')
  const imp = yield* requireStaged(d, importId, 'publish')
  const goldAs = opts.goldAs ?? null
  if (goldAs !== null) {
    checkOneOf(goldAs.source, LABEL_SOURCES, 'goldAs.source')
    checkId(goldAs.reviewer, 'goldAs.reviewer')
  }
  // Gold labels first: their count goes into the import row, which is final once published.
  const goldLabels = goldAs === null ? 0 : yield* recordGoldLabels(d, now, imp.id, goldAs, actor)
  const counts: ImportCounts = { ...imp.counts, labels: imp.counts.labels + goldLabels }
  yield* run(`UPDATE imports SET state = 'published', published_at = ?, updated_at = ?, counts = ? WHERE id = ?`, now, now, JSON.stringify(counts), imp.id)
  yield* appendAudit(now, actor, 'import.publish', imp.id, {
    fileName: imp.fileName,
    sha256: imp.sha256,
    kind: imp.kind,
    counts,
    begunBy: imp.createdBy,
    goldAs: goldAs === null ? null : { source: goldAs.source, reviewer: goldAs.reviewer, labels: goldLabels }
  })
  return yield* requireImport(d, imp.id)
}

export function* listImports(d: Dialect, limit: number): Plan<ImportRecord[]> {
  checkInt(limit, 'limit', 1)
  const rows = yield* rowsOf<ImportRow>(
    `SELECT ${IMPORT_COLUMNS} FROM imports WHERE state = 'published' ORDER BY published_at DESC, ${d.seq} DESC LIMIT ?`,
    Math.min(limit, 1000)
  )
  return rows.map(toImport)
}

export function* abandonImport(d: Dialect, now: string, importId: string): Plan<ImportRecord> {
  const imp = yield* requireImport(d, importId, true)
  if (imp.state === 'abandoned') return imp
  if (imp.state === 'published') {
    throw new StoreError('conflict', `import ${imp.id} is published and cannot be abandoned`, { importId: imp.id })
  }
  yield* run(`UPDATE imports SET state = 'abandoned', updated_at = ? WHERE id = ?`, now, imp.id)
  return yield* requireImport(d, imp.id)
}

const LIVE_COLUMNS = 'id, file_name, created_by, shell, session_id, created_at'
type LiveRow = { id: string; file_name: string; created_by: string; shell: Shell; session_id: string; created_at: string }

/** The staged imports a sweep must ask about (is its importer alive?), and the abandoned ones it may simply delete. */
export function* sweepCandidates(d: Dialect, target: SweepTarget): Plan<{ staged: LiveImport[]; abandoned: string[] }> {
  // A test-only schema history may not have the table (yet).
  if ((yield* rowOf(d.tableExists, 'imports')) === undefined) return { staged: [], abandoned: [] }
  let rows: (LiveRow & { state: string })[]
  const sql = `SELECT ${LIVE_COLUMNS}, state FROM imports WHERE state <> 'published'`
  if (target === 'all') rows = yield* rowsOf(`${sql} ORDER BY created_at`)
  else if (target === null || typeof target !== 'object') throw new StoreError('bad_input', "a sweep's target is 'all', { sha256 } or { importIds }")
  else if ('sha256' in target) {
    checkSha256(target.sha256, 'sha256')
    rows = yield* rowsOf(`${sql} AND sha256 = ? ORDER BY created_at`, target.sha256)
  } else {
    if (!Array.isArray(target.importIds)) throw new StoreError('bad_input', 'importIds must be an array')
    target.importIds.forEach((id, i) => checkId(id, `importIds[${i}]`))
    rows = yield* rowsOf(`${sql} AND id IN ${d.idSet} ORDER BY created_at`, d.idParam(target.importIds))
  }
  const staged = rows.filter((r) => r.state === 'staged')
  return {
    staged: staged.map((r) => ({ id: r.id, fileName: r.file_name, createdBy: r.created_by, shell: r.shell, sessionId: r.session_id, since: r.created_at })),
    abandoned: rows.filter((r) => r.state === 'abandoned').map((r) => r.id)
  }
}

/**
 * Deletes a dead (its lock taken by the caller) or abandoned import: its rows, then its row — a
 * failed import leaves nothing behind. False when it is gone already or was published meanwhile.
 */
export function* sweepImport(d: Dialect, importId: string): Plan<boolean> {
  const imp = yield* getImport(d, importId, true)
  if (imp === null || imp.state === 'published') return false
  yield* run('DELETE FROM seats WHERE import_id = ?', importId)
  yield* run('DELETE FROM tasks WHERE import_id = ?', importId) // moves, tallies, search rows follow by ON DELETE CASCADE
  yield* run('DELETE FROM imports WHERE id = ?', importId)
  return true
}

export function* findImportBySha(sha256: string): Plan<ImportRecord | null> {
  checkSha256(sha256, 'sha256')
  const row = yield* rowOf<ImportRow>(
    `SELECT ${IMPORT_COLUMNS} FROM imports WHERE sha256 = ? AND state <> 'abandoned'
     ORDER BY state = 'published' DESC, created_at DESC LIMIT 1`,
    sha256
  )
  return row === undefined ? null : toImport(row)
}

/**
 * The start of an import batch, the backends' bulk write: its staged import (locked), its seats
 * checked, and its tasks validated and serialised — unless the caller's thread did it already
 * (prepared-task.ts).
 */
export function* stagedBatch(d: Dialect, importId: string, batch: ImportBatch): Plan<{ imp: ImportRecord; extraSeats: SeatInput[]; tasks: PreparedTask[] }> {
  const imp = yield* requireStaged(d, importId, 'write to')
  if (batch === null || typeof batch !== 'object' || !Array.isArray(batch.tasks)) {
    throw new StoreError('bad_input', 'an import batch needs a tasks array')
  }
  const extraSeats = batch.seats ?? []
  extraSeats.forEach((s, i) => checkSeat(s, `seats[${i}]`))
  return { imp, extraSeats, tasks: batch.tasks.map((t) => (isPrepared(t) ? t : prepareTask(t))) }
}

/** The end of an import batch: its totals added to the import's running counts. */
export function* recordBatch(now: string, imp: ImportRecord, result: ImportBatchResult): Plan<void> {
  const c = imp.counts
  const counts: ImportCounts = {
    tasks: c.tasks + result.written,
    skipped: c.skipped + result.skipped,
    moves: c.moves + result.moves,
    seats: c.seats + result.seats,
    labels: c.labels
  }
  yield* run('UPDATE imports SET counts = ?, updated_at = ? WHERE id = ?', JSON.stringify(counts), now, imp.id)
}
