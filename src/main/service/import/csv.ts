/**
 * Label-aggregation CSV import (docs/formats.md): the io reader turns rows into round-0 proposes (one
 * candidate list for the whole file); then the same checks and staged writes as a trace file
 * (whole-file.ts).
 * These files are small next to trace dumps (the largest real one, 92,721 rows), so they are read
 * whole. The import's identity hashes the answers, the gold file and the dialect together.
 */
import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { readLabelCsvText, type CsvDialect } from '../../io'
import type { Actor } from '../../store'
import { Problems } from './problems'
import type { ImportOutcome, ImportRequest, StoreSource } from './types'
import { writeReadTasks } from './whole-file'
import type { ImportProgress } from './writer'

/** Faults not local to a line: they refuse the file even with --skip-invalid. */
const FILE_LEVEL: ReadonlySet<string> = new Set(['wrong-form', 'too-few-candidates', 'too-many-labels', 'bad-quote'])

function csvSha(answers: Buffer, gold: Buffer | null, dialect: CsvDialect): string {
  const h = createHash('sha256').update(answers).update('\u0000')
  if (gold !== null) h.update(gold)
  h.update('\u0000').update(JSON.stringify({ columns: dialect.columns, delimiter: dialect.delimiter ?? null, header: dialect.header }))
  return h.digest('hex')
}

export async function importCsvFile(open: StoreSource, req: ImportRequest, actor: Actor, progress: ImportProgress): Promise<ImportOutcome> {
  const file = req.fileName
  const answers = await readFile(req.path)
  const gold = req.dialect.gold === undefined ? null : await readFile(req.dialect.gold)
  const sha256 = csvSha(answers, gold, req.dialect)
  const base = { file, kind: 'csv' as const, sha256 }
  progress({ phase: 'validating', done: 0, total: answers.length, message: null })
  // Problems are kept by file and line: the gold file must not share the answers file's name.
  const named = req.goldName ?? req.dialect.gold ?? 'gold'
  const goldFile = named === file ? `${named} (gold)` : named
  const read = readLabelCsvText({ text: answers.toString('utf8'), file }, req.dialect, gold === null ? undefined : { text: gold.toString('utf8'), file: goldFile })
  const problems = new Problems()
  read.errors.forEach((e) => problems.add(e))
  // A CSV task's line is its first row's (move ids are `r<line>`).
  const lines = read.traces.map((t) => Number(t.moves[0]?.id.slice(1) ?? 0))
  // The reader already leaves bad rows out of its tasks, so --skip-invalid can go on without them;
  // but not past a file-level fault: too few labels, or a quote that swallowed the rest of the file.
  // Only the answers file's lines gate its tasks: a bad gold row is skipped, not its task's answers.
  const refuse = read.errors.length > 0 && (!req.skipInvalid || read.errors.some((e) => FILE_LEVEL.has(e.rule)))
  return writeReadTasks(open, req, actor, progress, base, 'crowd-csv', { traces: read.traces, raws: read.raws, lines }, problems, null, refuse)
}
