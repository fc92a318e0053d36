/**
 * `task-too-large` (shared/limits.ts): what a valid task would store beyond copies of its own input
 * — its dense tallies and its candidate list — may be at most DERIVED_BYTES_PER_INPUT_BYTE per byte
 * of that input. It is what bounds the database's growth per input byte: the seat, round and
 * candidate limits alone let a 9 kB line make 8 MB of tallies, and a label CSV's one-row task carry
 * every label of its file.
 */
import type { Move, Trace } from '../../shared/trace'
import type { LineErrors } from './json-fields'
import { DERIVED_BYTES_PER_INPUT_BYTE, derivedBytes, formatCount, tallyCounts } from './limits'

/** What a task's input is, for the message: a trace line, or the rows of a CSV form. */
export type TaskInputKind = 'line' | 'rows'

/**
 * Adds `task-too-large` to `errs` when `trace` would store too much for `input` — its line as read
 * (whose UTF-8 bytes are counted), or the byte count of its rows.
 */
export function checkTaskSize(trace: Trace, input: string | number, kind: TaskInputKind, errs: LineErrors): void {
  const { rounds, seats } = spread(trace.moves)
  const K = trace.candidates.length
  // Every line of an import passes here: the exact sizes are computed only when a cheap upper bound
  // (6 bytes per UTF-16 unit of a candidate, an escape, plus quotes and commas) against a cheap lower
  // bound of the input (a string's UTF-8 bytes are at least its UTF-16 units) does not settle it.
  let units = 0
  for (const c of trace.candidates) units += c.length
  const floor = typeof input === 'number' ? input : input.length
  if (derivedBytes(rounds, seats, K, 6 * units + 3 * K + 2) <= DERIVED_BYTES_PER_INPUT_BYTE * floor) return

  const bytes = typeof input === 'number' ? input : Buffer.byteLength(input, 'utf8')
  const candidateBytes = Buffer.byteLength(JSON.stringify(trace.candidates), 'utf8')
  const derived = derivedBytes(rounds, seats, K, candidateBytes)
  const budget = DERIVED_BYTES_PER_INPUT_BYTE * bytes
  if (derived <= budget) return
  const counts = tallyCounts(rounds, seats, K)
  errs.add(
    'task-too-large',
    `the task would store ${formatCount(derived)} bytes beyond its input — its tallies (R·S·(2K+2) = ${rounds} × ${seats} × ${2 * K + 2} = ${formatCount(counts)} counts, K = ${K} candidates, ` +
      `and a vote per seat) at 8 bytes each, and its candidates as JSON (${formatCount(candidateBytes)} bytes) three times — ` +
      `for the ${formatCount(bytes)} bytes of its ${kind === 'line' ? 'line' : 'rows'}; at most ${DERIVED_BYTES_PER_INPUT_BYTE} per byte (${formatCount(budget)}) are allowed`
  )
}

/** Distinct rounds and seats of the moves: the R and S of the task's tallies. */
function spread(moves: readonly Move[]): { rounds: number; seats: number } {
  const seats = new Set<string>()
  let rounds = 0
  let last = -1
  // A valid trace's rounds never decrease (`round-decreasing`), so distinct rounds are the changes.
  for (const m of moves) {
    seats.add(m.seat)
    if (m.round !== last) {
      rounds++
      last = m.round
    }
  }
  return { rounds, seats: seats.size }
}

/**
 * A CSV row's bytes as counted toward its task's input: its cells' UTF-8 bytes and one delimiter
 * or line end after each — at most what the file holds for it (quotes and CRs are not counted).
 */
export function rowBytes(cells: readonly string[]): number {
  let n = cells.length
  for (const c of cells) n += Buffer.byteLength(c, 'utf8')
  return n
}
