/**
 * Debate-rounds import (docs/formats.md "Debate rounds"): the io reader builds each task from its rows
 * (which may stand anywhere in the file, so it is read whole) and validates it as a trace line;
 * then the same checks and staged writes as a trace file. The import's identity hashes the bytes
 * with the delimiter they were split on.
 */
import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { delimiterFor, isCsvPath, readRoundsText } from '../../io'
import type { Actor } from '../../store'
import { Problems } from './problems'
import type { ImportOutcome, ImportRequest, StoreSource } from './types'
import { writeReadTasks } from './whole-file'
import { SeatModels, type ImportProgress } from './writer'

export async function importRoundsFile(open: StoreSource, req: ImportRequest, actor: Actor, progress: ImportProgress): Promise<ImportOutcome> {
  const file = req.fileName
  const bytes = await readFile(req.path)
  const delimiter = isCsvPath(file) ? delimiterFor(req.dialect, file) : null
  const sha256 = createHash('sha256').update(bytes).update('\u0000').update(JSON.stringify({ form: 'rounds', delimiter })).digest('hex')
  const base = { file, kind: 'rounds' as const, sha256 }
  progress({ phase: 'validating', done: 0, total: bytes.length, message: null })
  const read = readRoundsText({ text: bytes.toString('utf8'), file }, req.dialect)
  const problems = new Problems()
  read.errors.forEach((e) => problems.add(e))
  // A seat id names one agent across the file's tasks, as in a trace file.
  const seats = new SeatModels()
  read.traces.forEach((t, i) => seats.check(file, read.lines[i], t.task, t.seats ?? [], problems))
  // The reader leaves every task with an error out whole, so --skip-invalid can go on without
  // them; but not past a file it could not read as rows, nor a seat with two models.
  const refuse = !problems.empty && (!req.skipInvalid || read.fatal || seats.clashed)
  return writeReadTasks(open, req, actor, progress, base, 'traces', read, problems, seats, refuse)
}
