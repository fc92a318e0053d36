/**
 * Trace JSONL import (FORMATS.md `arbiter.trace/1`), in two streaming passes so a file of any size
 * is validated whole before one row is written, in bounded memory:
 * 1. validate every line (ENGINE.md §1), hash the file, note each valid task's line and content
 *    hash and the seat models it declares; then check ids and seats against the database;
 * 2. if nothing is wrong (or `--skip-invalid`), read again and write the accepted tasks, with
 *    their tallies, in staged batches; publish once. A file that changed between the passes
 *    (its hash differs) is abandoned.
 */
import { streamFileLines, TraceLineChecker } from '../../io'
import type { Actor, ImportRecord } from '../../store'
import { Problems } from './problems'
import { contentSha256, taskInputOf } from './task-input'
import type { ImportOutcome, ImportRequest, StoreSource } from './types'
import { checkAgainstStore, SeatModels, StagedWriter, type Candidate, type ImportProgress } from './writer'
import { ThreadedWriter } from './writer-thread'

const PROGRESS_EVERY = 20_000
/** Below this many tasks a second thread costs more (its start) than it saves. */
const THREADED_FROM = 10_000

type TaskWriter = StagedWriter | ThreadedWriter

export async function importTraceFile(open: StoreSource, req: ImportRequest, actor: Actor, progress: ImportProgress, bytes: number): Promise<ImportOutcome> {
  const file = req.fileName
  const problems = new Problems()
  const tasks = new Map<string, Candidate>()
  const seats = new SeatModels()
  const checker = new TraceLineChecker(file)
  const first = await streamFileLines(req.path, (line, read) => {
    const r = checker.check(line)
    if (r.kind === 'invalid') r.errors.forEach((e) => problems.add(e))
    else if (r.kind === 'valid') {
      // The content hash is only needed for ids the database already has: computed later, for those.
      tasks.set(r.trace.task, { task: r.trace.task, line: checker.line, sha: '' })
      seats.check(file, checker.line, r.trace.task, r.trace.seats ?? [], problems)
    }
    if (checker.line % PROGRESS_EVERY === 0) progress({ phase: 'validating', done: read, total: bytes, message: `line ${checker.line}` })
  })
  const base = { file, kind: 'traces' as const, sha256: first.sha256 }
  if (!problems.empty && !req.skipInvalid) return rejected(base, problems)
  const store = await open()
  seats.checkPublished(file, await store.seatModels(), problems)
  if (seats.clashed) return rejected(base, problems)
  const prior = await store.findImportBySha(first.sha256)
  if (prior !== null && prior.state === 'published') return alreadyImported(base, prior.id)

  progress({ phase: 'checking', done: 0, total: tasks.size, message: 'comparing with the database' })
  const skip = await checkAgainstStore(store, file, tasks, problems, (wanted) => hashLines(req.path, file, wanted))
  if (!problems.empty && !req.skipInvalid) return rejected(base, problems)

  const toWrite = [...tasks.values()].filter((c) => !skip.has(c.task) && !problems.onLine(file, c.line)).length
  const onBatch = (n: number) => progress({ phase: 'writing', done: n, total: toWrite, message: null })
  const input = { fileName: file, sha256: first.sha256, kind: 'traces' as const }
  const target = req.target ?? null
  const writer: TaskWriter =
    target !== null && toWrite >= THREADED_FROM ? new ThreadedWriter(target, input, actor, onBatch) : new StagedWriter(store, input, actor, onBatch)
  await writer.begin()
  try {
    const replay = new TraceLineChecker(file)
    const second = await streamFileLines(req.path, async (line) => {
      const r = replay.check(line)
      if (r.kind !== 'valid' || problems.onLine(file, replay.line) || skip.has(r.trace.task)) return
      await writer.add(taskInputOf(r.trace, r.raw, contentSha256(r.raw)))
    })
    if (second.sha256 !== first.sha256) throw Object.assign(new Error(`${file} changed while it was being imported; nothing was imported`), { code: 'conflict' })
    await writer.flush()
    progress({ phase: 'publishing', done: toWrite, total: toWrite, message: null })
    return imported(base, await writer.publish(req.goldAs === null ? null : { source: req.goldAs, reviewer: `import:${req.displayName}` }), skip.size, problems)
  } catch (e) {
    await writer.abandon()
    throw e
  }
}

/** Content hashes of the tasks on these lines (a third read, only when the database already has some of the ids). */
async function hashLines(path: string, file: string, wanted: Map<number, string>): Promise<Map<string, string>> {
  const out = new Map<string, string>()
  const checker = new TraceLineChecker(file)
  await streamFileLines(path, (line) => {
    const r = checker.check(line)
    if (r.kind === 'valid' && wanted.has(checker.line)) out.set(r.trace.task, contentSha256(r.raw))
  })
  return out
}

type Base = { file: string; kind: 'traces' | 'csv' | 'labels'; sha256: string }

export function alreadyImported(base: Base, importId: string): ImportOutcome {
  return { ...base, status: 'already-imported', importId, tasks: 0, skipped: 0, moves: 0, seats: 0, labels: 0, errors: [], errorCount: 0 }
}

/** A published import: its counts, plus the tasks skipped before writing (already present, same content). */
export function imported(base: Base, published: ImportRecord, skippedBefore: number, problems: Problems): ImportOutcome {
  const c = published.counts
  return { ...base, status: 'imported', importId: published.id, tasks: c.tasks, skipped: skippedBefore + c.skipped, moves: c.moves, seats: c.seats, labels: c.labels, errors: problems.list, errorCount: problems.count }
}

export function rejected(base: Base, problems: Problems): ImportOutcome {
  return { ...base, status: 'rejected', importId: null, tasks: 0, skipped: 0, moves: 0, seats: 0, labels: 0, errors: problems.list, errorCount: problems.count }
}
