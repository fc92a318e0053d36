/**
 * Database growth per input byte: adversarial files that every limit admits —
 * each task as close to its `task-too-large` budget as it can be, the largest seats × rounds ×
 * candidates, many tiny moves, the longest texts, and both CSV forms — imported into a fresh SQLite
 * database, then packed by a first corpus read (a fit's tally packs are a second copy of the
 * tallies), and measured as the file really is: page count × page size after a WAL checkpoint.
 */
import Database from 'better-sqlite3'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DEFAULT_DIALECT } from '../../../src/main/io'
import { loadCorpus } from '../../../src/main/service/fit/corpus'
import { runImport } from '../../../src/main/service/import'
import { openStore } from '../../../src/main/store'
import { DERIVED_BYTES_PER_INPUT_BYTE, derivedBytes, MAX_CANDIDATES, MAX_MOVE_TEXT, MAX_MOVES_PER_TASK, MAX_QUESTION_TEXT, MAX_ROUNDS_PER_TASK, MAX_SEATS_PER_TASK } from '../../../src/shared/limits'
import { FUZZ_ACTOR } from './full-import'

export interface GrowthCase {
  name: string
  fileName: string
  kind: 'traces' | 'csv' | 'rounds'
  text: string
  /**
   * True: built to just fit every limit, so it must be imported (a refusal would prove nothing).
   * False: hostile whatever the limits are — it may be refused, but if imported it is held to the bound.
   */
  admitted: boolean
}

export interface Growth {
  status: string
  /** The first error of a refused import. */
  error: string | null
  inputBytes: number
  grewBytes: number
  perInputByte: number
}

/** The database file's size as it is on disk once its WAL is checkpointed into it. */
function fileBytes(db: string): number {
  const sql = new Database(db)
  try {
    sql.pragma('wal_checkpoint(TRUNCATE)')
    return (sql.pragma('page_count', { simple: true }) as number) * (sql.pragma('page_size', { simple: true }) as number)
  } finally {
    sql.close()
  }
}

export async function measureGrowth(c: GrowthCase): Promise<Growth> {
  const dir = mkdtempSync(join(tmpdir(), 'arbiter-growth-'))
  try {
    const db = join(dir, 'growth.db')
    await (await openStore(db)).close()
    const before = fileBytes(db)
    const path = join(dir, c.fileName)
    writeFileSync(path, c.text)
    const store = await openStore(db)
    let status: string
    let error: string | null = null
    try {
      const req = { path, fileName: c.fileName, displayName: c.fileName, kind: c.kind, skipInvalid: false, goldAs: null, dialect: DEFAULT_DIALECT, goldName: null, target: null }
      const out = await runImport(store, req, FUZZ_ACTOR)
      status = out.status
      if (out.errors.length > 0) error = `${out.errors[0].rule}: ${out.errors[0].message}`
      // The first fit's read packs the import's tallies: a second copy, counted too.
      if (status === 'imported') await loadCorpus(store, FUZZ_ACTOR)
    } finally {
      await store.close()
    }
    const inputBytes = Buffer.byteLength(c.text)
    const grewBytes = fileBytes(db) - before
    return { status, error, inputBytes, grewBytes, perInputByte: grewBytes / inputBytes }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

const cands = (k: number, width = 1): string[] => Array.from({ length: k }, (_, i) => `${i}`.padStart(width, 'c'))
const jsonBytes = (v: unknown): number => Buffer.byteLength(JSON.stringify(v))

/**
 * A trace line whose moves open `seats` seats over `rounds` rounds (the diagonal, then one abstain
 * per seat and round up to `moves`), padded with a question just long enough for `task-too-large`
 * to admit it: as much stored per byte as the limits allow.
 */
function atBudget(task: string, seats: number, rounds: number, k: number): string {
  const candidates = cands(k)
  const moves = Array.from({ length: Math.max(seats, rounds) }, (_, i) => ({ id: `${i}`, round: Math.min(i, rounds - 1), seat: `${i % seats}`, force: 'abstain' }))
  const bare = { task, candidates, moves }
  const need = Math.ceil(derivedBytes(rounds, seats, k, jsonBytes(candidates)) / DERIVED_BYTES_PER_INPUT_BYTE)
  const pad = Math.max(0, need - jsonBytes(bare) - ',"question":""'.length)
  return JSON.stringify({ task, question: 'x'.repeat(pad), candidates, moves })
}

const lines = (n: number, line: (i: number) => string): string => `${Array.from({ length: n }, (_, i) => line(i)).join('\n')}\n`

/** A trace line of n moves on the diagonal (n seats × n rounds) and `k` candidates, nothing else: the least bytes for those tallies. */
function bare(task: string, n: number, k: number): string {
  return JSON.stringify({ task, candidates: cands(k), moves: Array.from({ length: n }, (_, i) => ({ id: `${i}`, round: i, seat: `${i}`, force: 'abstain' })) })
}

/** Every id of one or two characters from [0-9a-z]: 36 + 36² = 1,332 of them. */
function shortIds(): string[] {
  const a = '0123456789abcdefghijklmnopqrstuvwxyz'
  return [...a, ...[...a].flatMap((x) => [...a].map((y) => x + y))]
}

/** The adversarial files: hostile ones first (may be refused), then ones built to fit every limit. */
export function growthCases(): GrowthCase[] {
  const S = MAX_SEATS_PER_TASK
  const R = MAX_ROUNDS_PER_TASK
  const labels = cands(MAX_CANDIDATES, 4)
  const hostile: Omit<GrowthCase, 'admitted'>[] = [
    // Inside the seat, round and candidate counts: 8 MB of tallies (16 MB with the pack) from 9 kB.
    { name: `traces: ${S} seats × ${R} rounds × 31 candidates in a 9 kB line, 4 lines`, fileName: 'bare-tallies.jsonl', kind: 'traces', text: lines(4, (i) => bare(`b${i}`, S, 31)) },
    { name: `traces: one move and ${MAX_CANDIDATES} candidates, 300 bare lines`, fileName: 'bare-wide.jsonl', kind: 'traces', text: lines(300, (i) => JSON.stringify({ task: `w${i}`, candidates: cands(MAX_CANDIDATES), moves: [{ id: 'm', round: 0, seat: 'A', force: 'abstain' }] })) },
    { name: `label CSV: ${MAX_CANDIDATES} labels, 2,000 one-row tasks`, fileName: 'bare-labels.csv', kind: 'csv', text: `task,worker,label\n${labels.map((l, i) => `x${i},w,${l}`).join('\n')}\n${Array.from({ length: 2000 }, (_, i) => `${i},w,${labels[0]}`).join('\n')}\n` },
    { name: `debate rounds: ${S} seats × ${R} rounds × 31 answers on the diagonal, 4 tasks`, fileName: 'bare-rounds.csv', kind: 'rounds', text: `task,round,seat,answer\n${Array.from({ length: 4 }, (_, t) => Array.from({ length: S }, (_, i) => `d${t},${i},${i},${i % 31}`).join('\n')).join('\n')}\n` }
  ]
  const admitted: Omit<GrowthCase, 'admitted'>[] = [
    { name: `traces: ${S} seats × ${R} rounds × 31 candidates, each line at its budget`, fileName: 'max-tallies.jsonl', kind: 'traces', text: lines(2, (i) => atBudget(`big-${i}`, S, R, 31)) },
    { name: 'traces: 16 seats × 16 rounds × 8 candidates, 300 lines at their budget', fileName: 'mid-tallies.jsonl', kind: 'traces', text: lines(300, (i) => atBudget(`mid-${i}`, 16, 16, 8)) },
    { name: `traces: one move and ${MAX_CANDIDATES} candidates, 300 lines at their budget`, fileName: 'wide.jsonl', kind: 'traces', text: lines(300, (i) => atBudget(`w${i}`, 1, 1, MAX_CANDIDATES)) },
    {
      name: `traces: ${MAX_MOVES_PER_TASK.toLocaleString('en-US')} tiny moves (every seat in every round), 3 lines`, fileName: 'tiny-moves.jsonl', kind: 'traces',
      text: lines(3, (t) => JSON.stringify({ task: `m${t}`, candidates: ['a', 'b'], moves: Array.from({ length: MAX_MOVES_PER_TASK }, (_, i) => ({ id: `${i}`, round: Math.floor(i / S), seat: `${i % S}`, force: 'abstain' })) }))
    },
    { name: 'traces: 3,000 tasks without moves', fileName: 'empty-tasks.jsonl', kind: 'traces', text: lines(3000, (i) => JSON.stringify({ task: i.toString(36), candidates: ['a', 'b'], moves: [] })) },
    {
      name: 'traces: the longest question and move text, 2 lines', fileName: 'long-text.jsonl', kind: 'traces',
      text: lines(2, (t) => JSON.stringify({ task: `q${t}`, question: 'why so long '.repeat(MAX_QUESTION_TEXT / 12), candidates: ['a', 'b'], moves: [{ id: 'm', round: 0, seat: 'A', force: 'propose', answer: 'a', confidence: 0.5, text: 'because '.repeat((MAX_MOVE_TEXT - 3) / 8) }] }))
    },
    {
      name: `label CSV: ${MAX_CANDIDATES} labels, 40 tasks of rows just long enough`, fileName: 'labels-max.csv', kind: 'csv',
      // Each row (a seat) adds 2K + 3 counts: with 256 labels a row must be about 140 bytes to pay for them.
      text: `task,worker,label\n${Array.from({ length: 40 }, (_, t) => Array.from({ length: 20 }, (_, r) => `t${t},${`w${r}`.padEnd(132, 'w')},${labels[(t * 20 + r) % MAX_CANDIDATES]}`).join('\n')).join('\n')}\n`
    },
    // The smallest task a file can hold: every id of one or two characters (`ab,w,0`, 7 bytes a task).
    { name: 'label CSV: 1,332 one-row tasks with ids of one or two characters, 2 labels', fileName: 'labels-shortest.csv', kind: 'csv', text: `task,worker,label\n${shortIds().map((id, i) => `${id},w,${i % 2}`).join('\n')}\n` },
    { name: 'label CSV: 20,000 one-row tasks, 2 labels', fileName: 'labels-tiny.csv', kind: 'csv', text: `task,worker,label\n${Array.from({ length: 20_000 }, (_, i) => `${i.toString(36)},w,${i % 2}`).join('\n')}\n` },
    {
      name: `debate rounds: ${S} seats × ${R} rounds, tiny rows, 2 tasks`, fileName: 'rounds-max.csv', kind: 'rounds',
      text: `task,round,seat,answer\n${Array.from({ length: 2 }, (_, t) => Array.from({ length: S * R }, (_, i) => `r${t},${Math.floor(i / S)},${i % S},${i % 2}`).join('\n')).join('\n')}\n`
    },
    { name: 'debate rounds: 10,000 one-row tasks', fileName: 'rounds-tiny.csv', kind: 'rounds', text: `task,round,seat,answer\n${Array.from({ length: 10_000 }, (_, i) => `${i.toString(36)},0,s,${i % 2}`).join('\n')}\n` }
  ]
  return [...hostile.map((c) => ({ ...c, admitted: false })), ...admitted.map((c) => ({ ...c, admitted: true }))]
}
