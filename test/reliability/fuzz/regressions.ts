/**
 * Named counterexamples: inputs the fuzzer (or its design) found that once crashed, corrupted or
 * blew up an import. `FIXED_IN_IO` ones are refused by the readers now, naming the line and rule;
 * the amplification ones (a small file, a huge database) are refused by the size limits of
 * io/limits.ts, and the test also bounds the database growth they may cause.
 */
import type { CsvDialect } from '../../../src/main/io'

const trace = (task: string, extra: Record<string, unknown> = {}, moveExtra: Record<string, unknown> = {}): string =>
  JSON.stringify({ task, candidates: ['a', 'b'], moves: [{ id: 'm1', round: 0, seat: 'A1', force: 'propose', answer: 'a', ...moveExtra }], ...extra })
const label = (extra: Record<string, unknown>): string => JSON.stringify({ task: 'medclaim-0001', label: 'true', source: 'random', reviewer: 'ana', at: '2026-11-30T12:00:00Z', ...extra })

export interface Regression {
  name: string
  kind: 'traces' | 'csv' | 'labels'
  fileName: string
  text: string
  dialect?: CsvDialect
  /** The rule the import must refuse it with, on line 1 (line 2 for CSV, after the header) unless `line` says. */
  rule: string
  line?: number
}

export const FIXED_IN_IO: Regression[] = [
  // JSON.stringify of the task's raw object overflowed the stack: an uncaught RangeError mid-import.
  { name: '100,000 levels of [ in an unknown field', kind: 'traces', fileName: 'deep.jsonl', text: trace('r-deep').replace(/}$/, `,"x":${'['.repeat(100_000)}${']'.repeat(100_000)}}`), rule: 'malformed-json' },
  // The store keeps 64 levels: a StoreError without file or line, and --skip-invalid could not skip it.
  { name: '65 levels in a move field', kind: 'traces', fileName: 'deep65.jsonl', text: trace('r-deep65', {}, { y: JSON.parse(`${'['.repeat(65)}${']'.repeat(65)}`) as unknown }), rule: 'malformed-json' },
  { name: 'a number that overflows to Infinity', kind: 'traces', fileName: 'inf.jsonl', text: trace('r-inf').replace(/}$/, ',"x":1e400}'), rule: 'malformed-json' },
  // SQLite stores UTF-8: \ud800 and \udbff both became U+FFFD, two ids one row.
  { name: 'an unpaired surrogate in a task id', kind: 'traces', fileName: 'surrogate.jsonl', text: trace('r-\ud800'), rule: 'malformed-json' },
  { name: 'an empty task id', kind: 'traces', fileName: 'empty-id.jsonl', text: trace(''), rule: 'wrong-type' },
  { name: 'a task id of 513 characters', kind: 'traces', fileName: 'long-id.jsonl', text: trace('r'.repeat(513)), rule: 'wrong-type' },
  { name: 'an empty seat id', kind: 'traces', fileName: 'empty-seat.jsonl', text: trace('r-seat', {}, { seat: '' }), rule: 'wrong-type' },
  { name: 'a round of 1e300 (an integer, but not a safe one)', kind: 'traces', fileName: 'round.jsonl', text: trace('r-round', {}, { round: 1e300 }), rule: 'bad-round' },
  { name: 'an empty reviewer', kind: 'labels', fileName: 'reviewer.labels.jsonl', text: label({ reviewer: '' }), rule: 'wrong-type' },
  // Valid with its zone, but year 10000 in UTC: the store refuses "+010000-…".
  { name: 'a label time whose UTC year is 10000', kind: 'labels', fileName: 'year.labels.jsonl', text: label({ at: '9999-12-31T23:00:00-05:00' }), rule: 'bad-time' },
  { name: 'a CSV worker of 513 characters', kind: 'csv', fileName: 'long-worker.csv', text: `task,worker,label\nr-c1,${'w'.repeat(513)},yes\nr-c1,w2,no\n`, rule: 'wrong-type' },
  // Amplification: 194 MB of tallies from 145 kB; 189 MB of candidates from 28 kB (quadratic).
  { name: 'a trace whose 2,000 moves each open a new seat and round', kind: 'traces', fileName: 'tallies.jsonl', text: manyRoundsAndSeats(2000), rule: 'too-many-seats' },
  { name: 'a trace of 128 seats, 128 rounds and 32 candidates', kind: 'traces', fileName: 'tallies32.jsonl', text: manyRoundsAndSeats(128, 32), rule: 'tallies-too-large' },
  // Inside every count limit, yet 8 MB of tallies (16 MB with its tally pack) from a 9 kB line.
  { name: 'a trace of 128 seats, 128 rounds and 31 candidates', kind: 'traces', fileName: 'tallies31.jsonl', text: manyRoundsAndSeats(128, 31), rule: 'task-too-large' },
  // The 257th distinct label is on line 258.
  { name: 'a CSV of 2,000 rows with 2,000 distinct labels', kind: 'csv', fileName: 'labels.csv', text: manyLabels(2000).trimEnd(), rule: 'too-many-labels', line: 258 }
]

/** 300,000 candidates: the duplicate-candidate check was quadratic (tens of seconds per line); now past MAX_CANDIDATES. */
export const MANY_CANDIDATES = JSON.stringify({ task: 'r-many', candidates: Array.from({ length: 300_000 }, (_, i) => `c${i}`), moves: [] })

/**
 * Tallies are dense over (round cut × seat × 2K+2): a trace whose moves each open a new seat and a
 * new round stores n² · (2K+2) integers — 2,000 moves (≈ 150 KB) made 194 MB; 10,000 moves exhausted memory.
 */
export function manyRoundsAndSeats(n: number, k = 2): string {
  const candidates = Array.from({ length: k }, (_, i) => (i === 0 ? 'a' : i === 1 ? 'b' : `c${i}`))
  return JSON.stringify({ task: 'r-tallies', candidates, moves: Array.from({ length: n }, (_, i) => ({ id: `m${i}`, round: i, seat: `s${i}`, force: 'propose', answer: 'a' })) })
}

/** Every distinct label is a candidate of every task: n rows of distinct tasks and labels store n² candidates. */
export function manyLabels(n: number): string {
  return `task,worker,label\n${Array.from({ length: n }, (_, i) => `t${i},w${i % 7},l${i}`).join('\n')}\n`
}
