/**
 * The size limits of what a reader accepts, in one place: each keeps a small file from becoming a
 * huge database (or a value the store would refuse at write time, without a line number). A value
 * past a limit is an error on its line, with its own rule id (read-error.ts), like any other rule.
 */
import { recordWidth } from '../engine/tallies'
import { MAX_ID_LENGTH } from '../../shared/limits'

/** The store's `checkId` limit on ids (tasks, moves, seats, reviewers); shared with the store. */
export { MAX_ID_LENGTH }

/** The store's `checkJson` limit: a value may sit at most this many containers below the line's object. */
export const MAX_JSON_DEPTH = 64

// A task's tallies (engine/tallies.ts, ENGINE.md §2) are dense: R·S·(2K+2) integers for R distinct
// rounds, S distinct seats and K candidates, computed and stored with the task. Without limits a
// 145 kB line of 2,000 moves, each with a new seat and a new round, made 194 MB of tallies.

/** `too-many-seats`: distinct seats the moves of one task may use. */
export const MAX_SEATS_PER_TASK = 128
/** `too-many-rounds`: distinct rounds the moves of one task may use. */
export const MAX_ROUNDS_PER_TASK = 128
/** `tallies-too-large`: R·S·(2K+2) counts one task's tallies may hold (4 MiB of Int32). */
export const MAX_TALLY_COUNTS = 1_048_576

/** How many counts a task's tallies hold: R·S·(2K+2). */
export function tallyCounts(rounds: number, seats: number, candidates: number): number {
  return rounds * seats * recordWidth(candidates)
}

/**
 * `move-text-too-long`: what one move's `text` and `confidence` may hold together, in UTF-16 code
 * units — the text's length plus the length of the confidence as JSON (ENGINE.md §1 allows any
 * JSON value there, so an object or a long string is text by another name). Both are stored and
 * sent to the console whole with every view of the task; the longest text of the real debates in
 * `../data` is 8,620 characters, so a megabyte of one move is far past any council's output.
 */
export const MAX_MOVE_TEXT = 1_048_576

/**
 * `too-many-labels`: distinct labels one label-aggregation CSV file may use. Every label of the file
 * is a candidate of every task (FORMATS.md), so tasks × labels candidates are stored: 2,000 rows with
 * 2,000 distinct labels made 189 MB. The real datasets use at most 5.
 */
export const MAX_CSV_LABELS = 256

/** A count for a message: 1048576 → "1,048,576". */
export const formatCount = (n: number): string => n.toLocaleString('en-US')
