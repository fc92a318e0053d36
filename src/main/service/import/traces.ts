/**
 * Trace JSONL import (docs/formats.md `arbiter.trace/1`), in two streaming passes so a file of any size
 * is validated whole before one row is written, in bounded memory:
 * 1. validate every line (docs/engine.md §1), hash the file, note each valid task's line and content
 *    hash and the seat models it declares; then check ids and seats against the database;
 * 2. if nothing is wrong (or `--skip-invalid`), read again and write the accepted tasks, with
 *    their tallies, in staged batches; publish once. A file that changed between the passes
 *    (its hash differs) is abandoned.
 */
import { open as openFile } from 'node:fs/promises'
import { fileSha256, streamFileLines, TraceRangeChecker, trustedTrace, type TraceRangeReport } from '../../io'
import type { Actor, ImportRecord } from '../../store'
import { MAX_REPORTED, Problems } from './problems'
import { taskInputOf } from './task-input'
import { mergeTraceRanges } from './trace-ranges'
import type { ImportOutcome, ImportRequest, StoreSource } from './types'
import { checkAgainstStore, SeatModels, StagedWriter, type Candidate, type ImportProgress } from './writer'
import { ImportThread, ThreadedWriter } from './writer-thread'

const PROGRESS_EVERY = 20_000
/** Below this many tasks a second thread costs more (its start) than it saves. */
const THREADED_FROM = 10_000
/** Below this size pass 1 stays on one thread (about 10,000 tasks of a typical council). */
const SPLIT_FROM = 4 << 20
/**
 * This thread's share of pass 1: a little over half, because the other thread first has to start
 * while this one reads at once, then hashes the other half's bytes too.
 */
const OWN_SHARE = 0.55

type TaskWriter = StagedWriter | ThreadedWriter

export async function importTraceFile(open: StoreSource, req: ImportRequest, actor: Actor, progress: ImportProgress, bytes: number): Promise<ImportOutcome> {
  const target = req.target ?? null
  const split = target !== null && bytes >= SPLIT_FROM ? await lineStartNear(req.path, Math.floor(bytes * OWN_SHARE)) : null
  // One second thread serves the whole import: it validates the second half of pass 1, then writes.
  let thread = split !== null && target !== null ? new ImportThread(target) : null
  try {
    const file = req.fileName
    const problems = new Problems()
    const tasks = new Map<string, Candidate>()
    const seats = new SeatModels()
    const { sha256, lines } = await validate(req.path, file, split, thread, bytes, progress, problems, tasks, seats)
    const base = { file, kind: 'traces' as const, sha256 }
    if (!problems.empty && !req.skipInvalid) return rejected(base, problems)
    const store = await open()
    seats.checkPublished(file, await store.seatModels(), problems)
    if (seats.clashed) return rejected(base, problems)
    const prior = await store.findImportBySha(sha256)
    if (prior !== null && prior.state === 'published') return alreadyImported(base, prior.id)

    progress({ phase: 'checking', done: 0, total: tasks.size, message: 'comparing with the database' })
    const skip = await checkAgainstStore(store, file, tasks, problems)
    if (!problems.empty && !req.skipInvalid) return rejected(base, problems)

    // The lines pass 2 writes (valid, not skipped, no problem found with the database), by line: their content hashes.
    const toWrite = new Array<string | undefined>(lines + 1)
    let count = 0
    for (const c of tasks.values()) {
      if (skip.has(c.task) || problems.onLine(file, c.line)) continue
      toWrite[c.line] = c.sha
      count++
    }
    const onBatch = (n: number) => progress({ phase: 'writing', done: n, total: count, message: null })
    const input = { fileName: file, sha256, kind: 'traces' as const }
    let writer: TaskWriter
    if (target !== null && count >= THREADED_FROM) writer = new ThreadedWriter((thread ??= new ImportThread(target)), input, actor, onBatch)
    else writer = new StagedWriter(store, input, actor, onBatch)
    await writer.begin()
    try {
      await writeLines(req.path, file, sha256, toWrite, writer)
      progress({ phase: 'publishing', done: count, total: count, message: null })
      return imported(base, await writer.publish(req.goldAs === null ? null : { source: req.goldAs, reviewer: `import:${req.displayName}` }), skip.size, problems)
    } catch (e) {
      await writer.abandon()
      throw e
    }
  } finally {
    await thread?.close()
  }
}

/**
 * Pass 1: every line validated and the file hashed. A large file is validated in two halves at
 * once — this thread takes the first (and hashes the whole file), the import's second thread the
 * rest — and the halves' findings merged into what one pass would find.
 */
async function validate(
  path: string, file: string, split: number | null, thread: ImportThread | null, bytes: number, progress: ImportProgress,
  problems: Problems, tasks: Map<string, Candidate>, seats: SeatModels
): Promise<{ sha256: string; lines: number }> {
  const own = new TraceRangeChecker(file, MAX_REPORTED)
  const rest: Promise<TraceRangeReport> | null = split !== null && thread !== null ? thread.validateRange(path, file, split, MAX_REPORTED) : null
  // Not awaited yet: a failure surfaces below, after this half is read.
  rest?.catch(() => undefined)
  const streamed = await streamFileLines(
    path,
    (line, read) => {
      own.push(line)
      if (own.line % PROGRESS_EVERY === 0) progress({ phase: 'validating', done: read, total: bytes, message: `line ${own.line}` })
    },
    split === null ? {} : { linesEnd: split }
  )
  const other = rest === null ? null : await rest
  // The other thread must have validated the very bytes this one hashed (the file may change under us).
  if (other !== null && other.sha256 !== streamed.tailSha256) throw changedWhileImporting(file)
  const reports = other === null ? [own.report] : [own.report, other]
  mergeTraceRanges(file, reports, problems, tasks, seats)
  return { sha256: streamed.sha256, lines: reports.reduce((n, r) => n + r.lines, 0) }
}

/**
 * Pass 2: the accepted lines, parsed again but neither re-validated nor re-hashed (pass 1 did both
 * on the same bytes; the file's hash is compared at the end). If the file changed in between, a line may no longer
 * be what pass 1 saw: whatever breaks is reported as the change it is.
 */
async function writeLines(path: string, file: string, sha256: string, toWrite: (string | undefined)[], writer: TaskWriter): Promise<void> {
  let lineNo = 0
  let second: { sha256: string }
  try {
    second = await streamFileLines(path, (line) => {
      const sha = toWrite[++lineNo]
      if (sha === undefined) return
      const raw = JSON.parse(line) as Record<string, unknown>
      return writer.add(taskInputOf(trustedTrace(raw), raw, sha))
    })
  } catch (e) {
    if ((await fileSha256(path).catch(() => null))?.sha256 !== sha256) throw changedWhileImporting(file)
    throw e
  }
  if (second.sha256 !== sha256) throw changedWhileImporting(file)
  await writer.flush()
}

const changedWhileImporting = (file: string) =>
  Object.assign(new Error(`${file} changed while it was being imported; nothing was imported`), { code: 'conflict' })

/** The first line start at or after byte `at` (null when no line starts there: one long last line). */
async function lineStartNear(path: string, at: number): Promise<number | null> {
  const fh = await openFile(path, 'r')
  try {
    const buf = Buffer.alloc(1 << 16)
    for (let pos = at; ; pos += buf.length) {
      const { bytesRead } = await fh.read(buf, 0, buf.length, pos)
      if (bytesRead === 0) return null
      const nl = buf.subarray(0, bytesRead).indexOf(10)
      if (nl >= 0) return pos + nl + 1
    }
  } finally {
    await fh.close()
  }
}

export type Base = { file: string; kind: ImportOutcome['kind']; sha256: string }

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
