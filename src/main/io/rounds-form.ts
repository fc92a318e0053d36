import { open } from 'node:fs/promises'
import { delimiterFor, isCsvPath, type CsvDialect } from './csv-dialect'
import { parseRecords } from './csv-records'
import { isRecord } from './json-fields'

/**
 * The debate-rounds form (FORMATS.md "Debate rounds"): one row per seat per round, as a council's
 * own logs come. The columns it reads; any other column is ignored.
 */
export const ROUNDS_COLUMNS = ['task', 'round', 'seat', 'answer', 'model', 'text', 'confidence', 'gold', 'group', 'question', 'candidates'] as const
export type RoundsColumn = (typeof ROUNDS_COLUMNS)[number]

/** The form's mark: `round`, `seat` and `answer` named, and no `moves` (a trace line has moves). */
export function namesRoundsForm(names: Iterable<string>): boolean {
  const set = new Set(names)
  return set.has('round') && set.has('seat') && set.has('answer') && !set.has('moves')
}

/** How much of a file detection reads: a header line, or a first JSONL row, fits in it. */
const SNIFF_BYTES = 64 * 1024

/**
 * Whether the file is in the debate-rounds form: a CSV/TSV (by its name, as the label-aggregation
 * reader decides) whose header names the form's columns, or a JSONL file whose first object does.
 * `name` is the name the file was given (an upload's temp path has none of its own).
 */
export async function isRoundsFile(path: string, dialect: CsvDialect, name = path): Promise<boolean> {
  const head = await readHead(path)
  const first = head.split('\n').find((l) => l.trim() !== '')
  if (first === undefined) return false
  if (isCsvPath(name)) {
    const { records } = parseRecords(first, delimiterFor(dialect, name), name)
    return records.length > 0 && namesRoundsForm(records[0].fields)
  }
  try {
    const v: unknown = JSON.parse(first)
    return isRecord(v) && namesRoundsForm(Object.keys(v))
  } catch {
    return false // not JSON: the trace reader reports what is wrong with it
  }
}

async function readHead(path: string): Promise<string> {
  const fh = await open(path, 'r')
  try {
    const buf = Buffer.alloc(SNIFF_BYTES)
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0)
    return buf.subarray(0, bytesRead).toString('utf8').replace(/^\uFEFF/, '')
  } finally {
    await fh.close()
  }
}
