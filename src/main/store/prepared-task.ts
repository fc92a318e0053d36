/**
 * A task as an import writes it: validated once and serialised to the store's row forms (JSON text,
 * packed moves, the seats it implies). `writeImportBatch` accepts these as well as TaskInputs so a
 * large import can prepare its tasks on the parsing thread and hand the writer thread flat rows:
 * a structured clone of strings is a copy, of nested move objects a rebuild — the writer thread's
 * largest cost after SQLite itself. Produced only by `prepareTask`; the store trusts its output.
 */
import type { PreparedTask, TaskInput } from './contract'
import { packMoves } from './packed-moves'
import { checkTallies } from './tallies-check'
import { checkTask } from './validate'

export function isPrepared(t: TaskInput | PreparedTask): t is PreparedTask {
  return (t as PreparedTask).prepared === true
}

/** Validates a task as the store would (StoreError `bad_input` on a fault) and serialises it. */
export function prepareTask(t: TaskInput): PreparedTask {
  checkTask(t)
  const tallies = t.tallies ?? null
  if (tallies !== null) checkTallies(t.id, t.candidates.length, tallies)
  // Every seat the task mentions is registered, so counts and seat lists need no move scan.
  const seats = new Map<string, string | null>()
  for (const m of t.moves) if (!seats.has(m.seat)) seats.set(m.seat, null)
  for (const s of t.seats) if (s.model !== null || !seats.has(s.id)) seats.set(s.id, s.model ?? null)
  return {
    prepared: true,
    id: t.id,
    question: t.question,
    candidates: JSON.stringify(t.candidates),
    gold: t.gold,
    group: t.group,
    raw: JSON.stringify(t.raw),
    contentSha256: t.contentSha256,
    moves: packMoves(t.moves),
    moveCount: t.moves.length,
    seats: [...seats],
    tallies
  }
}
