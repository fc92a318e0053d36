import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { strFromU8, unzipSync } from 'fflate'
import type { Move, SeatInfo, Trace } from '@shared/trace'

/**
 * Converts `data/mmlu-pro-llm-outputs` (five zipped JSON arrays of MMLU-Pro model outputs) into
 * `arbiter.trace/1` traces, by the "Conversion rules for Arbiter" of its PROVENANCE.md:
 * - one task per question_id common to all files, in ascending id order; gold = the `answer` most
 *   files give (a tie would go to the earliest file in seat order; the data has none);
 * - candidates = letters A.. up to len(options) of the file that gave the majority gold — the first
 *   such file in seat order (strongest model first, as PROVENANCE lists them; this is the reading
 *   that reproduces its 46 out-of-candidate predictions); drop a question whose gold is not a
 *   candidate or that has fewer than 2;
 * - each file is a seat (id = short model name, `model` = the file's model name); its `pred` is a
 *   round-0 propose; a null pred, or a letter outside the candidates, is an `abstain`;
 * - `group` = category, `question` = the question text (both from that same file).
 * Zips are read in memory (fflate); nothing is unpacked to disk.
 */

/** PROVENANCE.md's model order (accuracy 70 % … 18 %) and the short names used as seat ids. */
const KNOWN_MODELS: [model: string, seat: string][] = [
  ['gemini-1.5-pro-002', 'gemini-1.5-pro'],
  ['Meta-Llama-3_1-70B-Instruct', 'llama-3.1-70b'],
  ['Meta-Llama-3_1-8B-Instruct', 'llama-3.1-8b'],
  ['Mistral-7B-Instruct-v0.2', 'mistral-7b'],
  ['Llama-2-7b-hf', 'llama-2-7b']
]

/** The counts PROVENANCE.md states, for the converter's self-check. */
export const MMLU_PRO_PROVENANCE = {
  seats: 5,
  commonQuestions: 12020,
  /** Stated "on the common questions", but it is the count over every row of the five files. */
  nonNullPredictions: 55842,
  outOfCandidatePredictions: 46
} as const

interface Row {
  id: number
  question: string
  options: number
  answer: string
  category: string
  pred: string | null
}

export interface SeatStats {
  seat: string
  model: string
  /** Null preds on the converted tasks. */
  nulls: number
  /** Null preds over every row of the seat's file (PROVENANCE.md counts these). */
  nullsAllRows: number
  /** Non-null preds outside the task's candidates (turned into abstain). */
  outOfCandidate: number
  /** Share of converted tasks where the seat proposed the gold (an abstention counts as wrong). */
  accuracy: number
}

export interface MmluProStats {
  files: number
  rowsPerFile: number[]
  commonQuestions: number
  tasks: number
  dropped: { questionId: number; reason: string }[]
  /** question_ids whose `answer` differs between files. */
  goldDrift: number
  moves: number
  proposes: number
  abstentions: number
  /** Non-null preds on the common questions (before the out-of-candidate rule). */
  nonNullCommon: number
  /** Non-null preds over every row of every file, common or not. */
  nonNullAllRows: number
  outOfCandidate: number
  seats: SeatStats[]
}

interface SeatFile {
  seat: string
  model: string
  rows: Map<number, Row>
}

/** @throws Error when the directory holds no `*.zip`, a zip has no single JSON array, or a row is malformed. */
export function convertMmluPro(dataDir: string): { traces: Trace[]; stats: MmluProStats } {
  const files = loadSeatFiles(dataDir)
  const nullsAllRows = files.map((f) => [...f.rows.values()].filter((r) => r.pred === null).length)
  const nonNullAllRows = files.reduce((sum, f, i) => sum + f.rows.size - nullsAllRows[i], 0)

  const common = [...files[0].rows.keys()].filter((id) => files.every((f) => f.rows.has(id))).sort((a, b) => a - b)
  const seats: SeatInfo[] = files.map((f) => ({ id: f.seat, model: f.model }))
  const seatStats: SeatStats[] = files.map((f, i) => ({ seat: f.seat, model: f.model, nulls: 0, nullsAllRows: nullsAllRows[i], outOfCandidate: 0, accuracy: 0 }))
  const correct = new Array<number>(files.length).fill(0)
  const traces: Trace[] = []
  const dropped: MmluProStats['dropped'] = []
  let goldDrift = 0
  let nonNullCommon = 0
  let proposes = 0
  let abstentions = 0

  for (const id of common) {
    const rows = files.map((f) => f.rows.get(id) as Row)
    for (const r of rows) if (r.pred !== null) nonNullCommon++
    const gold = majority(rows.map((r) => r.answer))
    if (rows.some((r) => r.answer !== rows[0].answer)) goldDrift++
    const source = rows.find((r) => r.answer === gold) as Row
    const candidates = letters(source.options)
    if (candidates.length < 2) {
      dropped.push({ questionId: id, reason: `fewer than 2 options (${candidates.length})` })
      continue
    }
    if (!candidates.includes(gold)) {
      dropped.push({ questionId: id, reason: `gold ${gold} not among ${candidates.length} options` })
      continue
    }
    const moves = rows.map((r, s): Move => {
      const move = { id: `m${s + 1}`, round: 0, seat: files[s].seat }
      if (r.pred === null) seatStats[s].nulls++
      else if (!candidates.includes(r.pred)) seatStats[s].outOfCandidate++
      else {
        proposes++
        if (r.pred === gold) correct[s]++
        return { ...move, force: 'propose', answer: r.pred }
      }
      abstentions++
      return { ...move, force: 'abstain' }
    })
    traces.push({
      task: `mmlu-pro-${id}`,
      question: source.question,
      candidates,
      gold,
      group: source.category,
      seats: seats.map((s) => ({ ...s })),
      moves
    })
  }
  seatStats.forEach((s, i) => (s.accuracy = traces.length === 0 ? 0 : correct[i] / traces.length))

  return {
    traces,
    stats: {
      files: files.length,
      rowsPerFile: files.map((f) => f.rows.size),
      commonQuestions: common.length,
      tasks: traces.length,
      dropped,
      goldDrift,
      moves: proposes + abstentions,
      proposes,
      abstentions,
      nonNullCommon,
      nonNullAllRows,
      outOfCandidate: seatStats.reduce((sum, s) => sum + s.outOfCandidate, 0),
      seats: seatStats
    }
  }
}

/** "A".."J" for 10 options. */
function letters(n: number): string[] {
  return Array.from({ length: n }, (_, i) => String.fromCharCode(65 + i))
}

/** The most frequent value; ties go to the value seen first (earliest seat). */
function majority(values: string[]): string {
  const counts = new Map<string, number>()
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1)
  let best = values[0]
  for (const v of values) if ((counts.get(v) as number) > (counts.get(best) as number)) best = v
  return best
}

function loadSeatFiles(dataDir: string): SeatFile[] {
  const zips = readdirSync(dataDir).filter((f) => f.endsWith('.zip')).sort()
  if (zips.length === 0) throw new Error(`mmlu-pro: no .zip files in ${dataDir}`)
  const files = zips.map((name): SeatFile => {
    const model = name.replace(/^model_outputs_/, '').replace(/_5shots\.zip$|\.zip$/, '')
    const known = KNOWN_MODELS.find(([m]) => m === model)
    return { model, seat: known ? known[1] : model.toLowerCase(), rows: readRows(join(dataDir, name)) }
  })
  const rank = (f: SeatFile): number => {
    const i = KNOWN_MODELS.findIndex(([m]) => m === f.model)
    return i < 0 ? KNOWN_MODELS.length : i
  }
  // Known models in PROVENANCE order; any other file after them, by name (sort is stable).
  return files.sort((a, b) => rank(a) - rank(b))
}

function readRows(path: string): Map<number, Row> {
  const entries = unzipSync(readFileSync(path), { filter: (f) => f.name.endsWith('.json') })
  const names = Object.keys(entries)
  if (names.length !== 1) throw new Error(`mmlu-pro: ${path} must hold exactly one .json file, found ${names.length}`)
  const data: unknown = JSON.parse(strFromU8(entries[names[0]]))
  if (!Array.isArray(data)) throw new Error(`mmlu-pro: ${path}: expected a JSON array`)
  const rows = new Map<number, Row>()
  for (const raw of data as Record<string, unknown>[]) {
    const { question_id: id, question, options, answer, category, pred } = raw
    if (
      !Number.isInteger(id) ||
      typeof question !== 'string' ||
      !Array.isArray(options) ||
      typeof answer !== 'string' ||
      typeof category !== 'string' ||
      !(pred === null || typeof pred === 'string')
    )
      throw new Error(`mmlu-pro: ${path}: malformed row (question_id ${String(id)})`)
    if (rows.has(id as number)) throw new Error(`mmlu-pro: ${path}: duplicate question_id ${String(id)}`)
    rows.set(id as number, { id: id as number, question, options: options.length, answer, category, pred })
  }
  return rows
}
