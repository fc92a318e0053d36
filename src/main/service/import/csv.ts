/**
 * Label-aggregation CSV import (FORMATS.md): the io reader turns rows into round-0 proposes (one
 * candidate list for the whole file); then the same checks and staged writes as a trace file.
 * These files are small next to trace dumps (the largest real one, 92,721 rows), so they are read
 * whole. The import's identity hashes the answers, the gold file and the dialect together.
 */
import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { readLabelCsvText, type CsvDialect } from '../../io'
import type { Actor } from '../../store'
import { Problems } from './problems'
import { contentSha256, taskInputOf } from './task-input'
import { alreadyImported, imported, rejected } from './traces'
import type { ImportOutcome, ImportRequest, StoreSource } from './types'
import { checkAgainstStore, StagedWriter, type Candidate, type ImportProgress } from './writer'

/** Faults not local to a line: they refuse the file even with --skip-invalid. */
const FILE_LEVEL: ReadonlySet<string> = new Set(['too-few-candidates', 'too-many-labels', 'bad-quote'])

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
  const tasks = new Map<string, Candidate>()
  const shas = read.raws.map((raw) => contentSha256(raw))
  read.traces.forEach((t, i) => {
    // A CSV task's line is its first row's (move ids are `r<line>`).
    const line = Number(t.moves[0]?.id.slice(1) ?? 0)
    tasks.set(t.task, { task: t.task, line, sha: shas[i] })
  })
  // The reader already leaves bad rows out of its tasks, so --skip-invalid can go on without them;
  // but not past a file-level fault: too few labels, or a quote that swallowed the rest of the file.
  if (read.errors.length > 0 && (!req.skipInvalid || read.errors.some((e) => FILE_LEVEL.has(e.rule)))) return rejected(base, problems)
  const store = await open()
  const prior = await store.findImportBySha(sha256)
  if (prior !== null && prior.state === 'published') return alreadyImported(base, prior.id)
  const skip = await checkAgainstStore(store, file, tasks, problems)
  if (!problems.empty && !req.skipInvalid) return rejected(base, problems)

  // Only the answers file's lines gate its tasks: a bad gold row is skipped, not its task's answers.
  const accepted = read.traces
    .map((t, i) => ({ t, i }))
    .filter(({ t }) => !skip.has(t.task) && !problems.onLine(file, tasks.get(t.task)?.line ?? -1))
  const writer = new StagedWriter(store, { fileName: file, sha256, kind: 'crowd-csv' }, actor, (n) =>
    progress({ phase: 'writing', done: n, total: accepted.length, message: null })
  )
  await writer.begin()
  try {
    for (const { t, i } of accepted) await writer.add(taskInputOf(t, read.raws[i] as Record<string, unknown>, shas[i]))
    return imported(base, await writer.publish(req.goldAs === null ? null : { source: req.goldAs, reviewer: `import:${req.displayName}` }), skip.size, problems)
  } catch (e) {
    await writer.abandon()
    throw e
  }
}
