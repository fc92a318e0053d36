/**
 * Seats of an import: every seat a task mentions is registered with the import that wrote it, and
 * a seat id names one agent (one model) across imports. Called by the backends' import batches.
 */
import { StoreError, type ImportRecord, type SeatInput } from '../contract'
import { rowOf, rowsOf, run, type Plan } from '../plan'

/** The seats an import has registered so far (id → model), cached for one batch. */
export type SeatCache = Map<string, string | null>

export function* seatCache(importId: string): Plan<SeatCache> {
  const rows = yield* rowsOf<{ id: string; model: string | null }>('SELECT id, model FROM seats WHERE import_id = ?', importId)
  return new Map(rows.map((r) => [r.id, r.model]))
}

/**
 * Whether a mention adds anything (a new seat, or a model for one): large imports name the same
 * few seats on every task, and a mention that adds nothing costs no statement — not even a plan.
 */
export function seatIsNews(s: SeatInput, own: SeatCache): boolean {
  return !own.has(s.id) || (s.model !== null && s.model !== (own.get(s.id) ?? null))
}

/** Registers a mention that is news (seatIsNews); returns 1 when a seat row was added for this import. */
export function* admitSeat(imp: ImportRecord, s: SeatInput, own: SeatCache): Plan<number> {
  const known = own.has(s.id)
  if (s.model !== null) {
    const clash = yield* rowOf<{ import_id: string; file_name: string; model: string }>(
      `SELECT s.import_id, i.file_name, s.model FROM seats s JOIN imports i ON i.id = s.import_id
       WHERE s.id = ? AND s.model IS NOT NULL AND s.model <> ? AND (i.state = 'published' OR i.id = ?) LIMIT 1`,
      s.id, s.model, imp.id
    )
    if (clash !== undefined) {
      throw new StoreError(
        'bad_input',
        `seat "${s.id}" is model "${s.model}" in import ${imp.id} ("${imp.fileName}") but "${clash.model}" in import ` +
          `${clash.import_id} ("${clash.file_name}"); a seat id names one agent`,
        { seatId: s.id, importId: imp.id, existingImportId: clash.import_id }
      )
    }
  }
  if (!known) {
    yield* run('INSERT INTO seats (id, import_id, model) VALUES (?, ?, ?)', s.id, imp.id, s.model)
    own.set(s.id, s.model)
    return 1
  }
  // Seats table is not append-only: a staged seat first seen in a move learns its model later.
  yield* run('UPDATE seats SET model = ? WHERE id = ? AND import_id = ?', s.model, s.id, imp.id)
  own.set(s.id, s.model)
  return 0
}
