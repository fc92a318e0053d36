import { open } from 'node:fs/promises'
import { StringDecoder } from 'node:string_decoder'
import { delimiterFor, isCsvPath, type CsvDialect } from './csv-dialect'
import { parseRecords } from './csv-records'
import { isRecord } from './json-fields'
import { isBlank } from './lines'

/**
 * The debate-rounds form (docs/formats.md "Debate rounds"): one row per seat per round, as a council's
 * own logs come. The columns it reads; any other column is ignored.
 */
export const ROUNDS_COLUMNS = ['task', 'round', 'seat', 'answer', 'model', 'text', 'confidence', 'gold', 'group', 'question', 'candidates'] as const
export type RoundsColumn = (typeof ROUNDS_COLUMNS)[number]

/**
 * The form's mark: `round` and `seat` or `answer` named, and no `moves` (a trace line has moves). One
 * of the two may be missing so that such a file is read as the rounds it plainly is, and told which
 * column it lacks, not misread as a label-aggregation CSV; no label-aggregation file names `round`.
 */
export function namesRoundsForm(names: Iterable<string>): boolean {
  const set = new Set(names)
  return set.has('round') && (set.has('seat') || set.has('answer')) && !set.has('moves')
}

/**
 * Whether the file is in the debate-rounds form: a CSV/TSV (by its name, as the label-aggregation
 * reader decides) whose header names the form's columns, or a JSONL file whose first object does.
 * Only the first non-blank line is read — whole, since a JSONL row holding a long answer text may
 * run far past any fixed prefix. `name` is the name the file was given (an upload's temp path has
 * none of its own).
 */
export async function isRoundsFile(path: string, dialect: CsvDialect, name = path): Promise<boolean> {
  const first = await firstLine(path)
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

/**
 * The first non-blank line, as lines.ts reads lines (a leading BOM and a final CR dropped), read in
 * chunks until it ends; undefined for a blank file.
 */
async function firstLine(path: string): Promise<string | undefined> {
  const fh = await open(path, 'r')
  try {
    const decoder = new StringDecoder('utf8')
    const buf = Buffer.alloc(CHUNK)
    let text = ''
    let atStart = true
    for (let pos = 0; ; ) {
      const { bytesRead } = await fh.read(buf, 0, buf.length, pos)
      pos += bytesRead
      const done = bytesRead === 0
      text += done ? decoder.end() : decoder.write(buf.subarray(0, bytesRead))
      if (atStart && text.length > 0) {
        if (text.charCodeAt(0) === 0xfeff) text = text.slice(1)
        atStart = false
      }
      let from = 0
      for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', from)) {
        const line = stripCr(text.slice(from, nl))
        from = nl + 1
        if (!isBlank(line)) return line
      }
      text = text.slice(from)
      if (done) return isBlank(text) ? undefined : stripCr(text)
    }
  } finally {
    await fh.close()
  }
}

const CHUNK = 64 * 1024
const stripCr = (line: string): string => (line.endsWith('\r') ? line.slice(0, -1) : line)
