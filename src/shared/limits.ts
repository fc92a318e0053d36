/**
 * The size limits of what Arbiter accepts, in one place (docs/formats.md, "Limits"). Each keeps a small file
 * from becoming a huge database, or a value the store would refuse at write time without a line
 * number: the readers (src/main/io) refuse a value past a limit on its line, with the limit's own
 * rule id (io/read-error.ts), and the store (src/main/store/validate.ts) holds the ones it shares.
 * Text lengths are in UTF-16 code units (JavaScript's `length`), input sizes in UTF-8 bytes.
 */

/** The longest id (task, move, seat, reviewer) Arbiter keeps, in UTF-16 code units. */
export const MAX_ID_LENGTH = 512

/** The store's `checkJson` limit: a value may sit at most this many containers below the line's object. */
export const MAX_JSON_DEPTH = 64

/**
 * `question-too-long`: a task's question. It is stored with the task and in the question search,
 * and shown whole on the review screen; a megabyte is far past any benchmark's question.
 */
export const MAX_QUESTION_TEXT = 1_048_576

/**
 * `move-text-too-long`: what one move's `text` and `confidence` may hold together — the text's
 * length plus the length of the confidence as JSON (docs/engine.md §1 allows any JSON value there, so an
 * object or a long string is text by another name). The longest text of the real debates in
 * `../data` is 8,620 characters, so a megabyte of one move is far past any council's output.
 */
export const MAX_MOVE_TEXT = 1_048_576

/**
 * `too-many-candidates`: a task's candidates. Every candidate widens the task's tallies (2K + 2
 * counts per seat and round cut); the real datasets use at most 10. The label-aggregation CSV's
 * `too-many-labels` is the same limit: every label of its file is a candidate of every task.
 */
export const MAX_CANDIDATES = 256

/** `too-many-seats`: distinct seats the moves of one task may use. */
export const MAX_SEATS_PER_TASK = 128
/** `too-many-rounds`: distinct rounds the moves of one task may use. */
export const MAX_ROUNDS_PER_TASK = 128
/** `too-many-moves`: moves of one task — one per seat and round at the largest council the two limits above admit. */
export const MAX_MOVES_PER_TASK = MAX_SEATS_PER_TASK * MAX_ROUNDS_PER_TASK

// A task's tallies (engine/tallies.ts, docs/engine.md §2) are dense: R·S·(2K+2) integers for R distinct
// rounds, S distinct seats and K candidates, computed with the task and stored twice (its own row,
// and the tally pack its import's first fit writes). A 145 kB line of 2,000 moves, each with a new
// seat and a new round, once made 194 MB of tallies; a 9 kB line within the seat and round limits
// (128 × 128 × 31 candidates) still made 8 MB.

/** `tallies-too-large`: R·S·(2K+2) counts one task's tallies may hold (4 MiB of Int32), whatever its size. */
export const MAX_TALLY_COUNTS = 1_048_576

/**
 * `task-too-large`: what a task may store beyond its own input, per byte of that input (its line; for
 * the CSV forms, its rows). Counted: its tallies, 8 bytes per count (4 bytes, twice), and its
 * candidates as JSON, three times (the task's row, its raw fields, the tally pack) — the label CSV's
 * candidates are the whole file's labels, not the task's own bytes. Everything else a task stores is
 * a copy of its input or a fixed cost, so the database grows by at most 64 bytes per input byte
 * (docs/reliability.md, checked by the fuzz suite).
 */
export const DERIVED_BYTES_PER_INPUT_BYTE = 32
/** Bytes per tally count stored (Int32, in the task's row and in its import's tally pack). */
export const TALLY_COUNT_BYTES = 8
/** Copies of a task's candidate list the store keeps. */
export const CANDIDATE_COPIES = 3

/** How many counts a task's tallies hold: R·S·(2K+2) (docs/engine.md §2). */
export function tallyCounts(rounds: number, seats: number, candidates: number): number {
  return rounds * seats * (2 * candidates + 2)
}

/** What `task-too-large` counts for a task: its tallies (counts and one vote per seat) and its candidate copies, in bytes. */
export function derivedBytes(rounds: number, seats: number, candidates: number, candidatesJsonBytes: number): number {
  return TALLY_COUNT_BYTES * (tallyCounts(rounds, seats, candidates) + seats) + CANDIDATE_COPIES * candidatesJsonBytes
}

/** A count for a message: 1048576 → "1,048,576". */
export const formatCount = (n: number): string => n.toLocaleString('en-US')
/** The longest reason a flag keeps ("can't decide, because…"): a note to the next reviewer, not a document. */
export const FLAG_REASON_MAX = 2000
