/** A task's shapes: as an import gives it, as prepared for writing, as stored with its moves and tallies. */
import type { Force } from '../../../shared/trace'
import type { JsonObject, JsonValue } from './json'

export type SeatInput = { id: string; model: string | null }

export type MoveInput = {
  id: string
  round: number
  seat: string
  force: Force
  answer: string | null
  target: string | null
  /** Any JSON value; null when the move has none (a `null` in the file reads back as none). */
  confidence: JsonValue | null
  text: string | null
  /** Unknown fields of the move, kept for round-tripping. */
  raw: JsonObject | null
}

/**
 * One task's sufficient statistics in the engine's layout (docs/engine.md §2; engine/tallies.ts):
 * `counts` holds R·S records of width 2K + 2 (N, current answer, c(g)…, e(g)…) and `vote0` each
 * local seat's last round-0 propose/vote (−1 = none). Seats are named by id (`seatIds`, local
 * order) so any run can map them onto its own seat index.
 */
export type TallyInput = {
  K: number
  seatIds: string[]
  rounds: number[]
  counts: Int32Array
  vote0: Int32Array
  /** Top share of the `social` state at the last round (1/K for a task without moves). */
  socialP1: number
}

export type StoredTallies = TallyInput & {
  taskId: string
  candidates: string[]
  group: string | null
}

export type TaskInput = {
  id: string
  question: string | null
  candidates: string[]
  /** Hidden truth (docs/engine.md §10): stored, never returned as a label. */
  gold: string | null
  group: string | null
  /** The task's payload as read (unknown fields included), kept for round-tripping. */
  raw: JsonObject
  /** Hash of the task's content computed by io; decides skip (same) vs. error (changed). */
  contentSha256: string
  /** In file order; a move's position is its index here. */
  moves: MoveInput[]
  seats: SeatInput[]
  /** The engine's tallies of `moves`, stored with the task (absent: backfilled before a fit). */
  tallies?: TallyInput | null
}

/**
 * A task as an import writes it: validated once and serialised to the store's row forms (JSON text,
 * packed moves, the seats it implies). Produced only by `prepareTask` (prepared-task.ts); the store
 * trusts its output.
 */
export type PreparedTask = {
  prepared: true
  id: string
  question: string | null
  /** JSON array text. */
  candidates: string
  gold: string | null
  group: string | null
  /** JSON object text. */
  raw: string
  contentSha256: string
  /** packMoves text. */
  moves: string
  moveCount: number
  /** Every seat the task mentions, moves first, with the model its trace declares (or null). */
  seats: [id: string, model: string | null][]
  tallies: TallyInput | null
}

/** A task as written, moves included (for tallies backfill and the review screen). */
export type TaskTrace = {
  id: string
  question: string | null
  candidates: string[]
  group: string | null
  createdAt: string
  version: number
  importId: string
  fileName: string
  moves: MoveInput[]
  /** Seat id → model, for the seats this task's import declared. */
  models: Record<string, string | null>
}

/** What the import pipeline needs to know about ids already in the database, before writing. */
export type ExistingTask = {
  taskId: string
  contentSha256: string
  candidates: string[]
  importId: string
  fileName: string
  state: 'staged' | 'published'
}
