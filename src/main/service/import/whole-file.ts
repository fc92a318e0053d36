/**
 * The write half of the imports whose file is read whole (label-aggregation CSV, debate rounds):
 * the reader's valid tasks checked against the database, then written in staged batches and
 * published once — as trace JSONL's pass 2 does, without reading the file again.
 */
import type { Trace } from '../../../shared/trace'
import type { Actor, ImportRecordKind } from '../../store'
import type { Problems } from './problems'
import { contentSha256, taskInputOf } from './task-input'
import { alreadyImported, imported, rejected, type Base } from './traces'
import type { ImportOutcome, ImportRequest, StoreSource } from './types'
import { checkAgainstStore, StagedWriter, type Candidate, type ImportProgress, type SeatModels } from './writer'

/** A reader's valid tasks: each trace, its line object (round-tripped), and the line its task-level problems name. */
export interface ReadTasks {
  traces: Trace[]
  raws: object[]
  lines: number[]
}

/**
 * `refuse`: the reader's findings already refuse the file (errors without `--skip-invalid`, or a
 * file-level fault). `seats`: the models the file's tasks declared, checked against the published
 * ones (null when the form declares none).
 */
export async function writeReadTasks(
  open: StoreSource, req: ImportRequest, actor: Actor, progress: ImportProgress, base: Base, storeKind: ImportRecordKind,
  read: ReadTasks, problems: Problems, seats: SeatModels | null, refuse: boolean
): Promise<ImportOutcome> {
  const file = base.file
  const tasks = new Map<string, Candidate>()
  const shas = read.raws.map((raw) => contentSha256(raw))
  read.traces.forEach((t, i) => tasks.set(t.task, { task: t.task, line: read.lines[i], sha: shas[i] }))
  if (refuse) return rejected(base, problems)
  const store = await open()
  if (seats !== null) {
    seats.checkPublished(file, await store.seatModels(), problems)
    if (seats.clashed) return rejected(base, problems)
  }
  const prior = await store.findImportBySha(base.sha256)
  if (prior !== null && prior.state === 'published') return alreadyImported(base, prior.id)
  const skip = await checkAgainstStore(store, file, tasks, problems)
  if (!problems.empty && !req.skipInvalid) return rejected(base, problems)

  const accepted = read.traces.map((t, i) => ({ t, i })).filter(({ t, i }) => !skip.has(t.task) && !problems.onLine(file, read.lines[i]))
  const writer = new StagedWriter(store, { fileName: file, sha256: base.sha256, kind: storeKind }, actor, (n) =>
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
