/**
 * Pass 2 of a large import, split over two threads: this thread parses, validates and builds the
 * tasks (JSON, tallies, hashes) while a writer thread with its own connection writes the previous
 * batches — the two costs are of the same size, and overlapping them nearly halves pass 2. The
 * writer thread speaks a tiny request/response protocol; `ThreadedWriter` is its client, with the
 * same methods as `StagedWriter`, and keeps at most two batches in flight (bounded memory).
 */
import type { MessagePort } from 'node:worker_threads'
import { openStore, prepareTask, type Actor, type ImportRecordKind, type ImportRecord, type LabelSource, type PreparedTask, type Store, type TaskInput } from '../../store'
import { streamFileLines, TraceRangeChecker, type TraceRangeReport } from '../../io'
import { RequestThread, serveRequests } from '../jobs/request-thread'
import { BATCH_TASKS } from './writer'

export type WriterRequest =
  | { type: 'validate-range'; path: string; file: string; start: number; listLimit: number }
  | { type: 'begin'; input: { fileName: string; sha256: string; kind: ImportRecordKind }; actor: Actor }
  | { type: 'batch'; tasks: PreparedTask[] }
  | { type: 'publish'; goldAs: { source: LabelSource; reviewer: string } | null; actor: Actor }
  | { type: 'abandon' }

export interface WriterThreadData {
  kind: 'import-writer'
  dbLocation: string
  nativeBinding: string | null
}

/**
 * The writer thread's side: requests served strictly in order. It may first validate a part of
 * the file (pass 1, before anything is known to be writable), so its connection is opened at
 * `begin`: a file that is refused never creates or migrates the database.
 */
export function serveImportWriter(port: MessagePort, data: WriterThreadData): void {
  let store: Store | null = null
  let importId: string | null = null
  const handle = async (req: WriterRequest): Promise<unknown> => {
    switch (req.type) {
      case 'validate-range':
        return validateRange(req.path, req.file, req.start, req.listLimit)
      case 'begin':
        store = await openStore(data.dbLocation, data.nativeBinding === null ? {} : { nativeBinding: data.nativeBinding })
        importId = (await store.beginImport(req.input, req.actor)).value.id
        return importId
      case 'batch':
        return (await opened(store).writeImportBatch(importId as string, { tasks: req.tasks })).value
      case 'publish':
        return (await opened(store).publishImport(importId as string, req.actor, { goldAs: req.goldAs })).value
      case 'abandon':
        if (store !== null && importId !== null) await store.abandonImport(importId)
        return null
    }
  }
  serveRequests(port, handle, async () => {
    await store?.close()
  })
}

function opened(store: Store | null): Store {
  if (store === null) throw new Error('import writer: a batch before begin')
  return store
}

async function validateRange(path: string, file: string, start: number, listLimit: number): Promise<TraceRangeReport> {
  const checker = new TraceRangeChecker(file, listLimit)
  const read = await streamFileLines(path, (line) => checker.push(line), { start })
  return { ...checker.report, sha256: read.sha256 }
}

/** The import's second thread, as seen from the import: one request at a time, answered in order. */
export class ImportThread extends RequestThread<WriterRequest> {
  constructor(target: { dbLocation: string; nativeBinding: string | null }) {
    const data: WriterThreadData = { kind: 'import-writer', dbLocation: target.dbLocation, nativeBinding: target.nativeBinding }
    super(data)
  }

  /** Pass 1's other half: the lines from byte `start` (a line start) to the end. */
  validateRange(path: string, file: string, start: number, listLimit: number): Promise<TraceRangeReport> {
    return this.send({ type: 'validate-range', path, file, start, listLimit }) as Promise<TraceRangeReport>
  }
}

/** The import thread's side: the same contract as StagedWriter, backed by the writer thread. */
export class ThreadedWriter {
  private readonly inFlight: Promise<unknown>[] = []
  private batch: PreparedTask[] = []
  readonly totals = { tasks: 0, skipped: 0, moves: 0, seats: 0 }

  constructor(
    private readonly thread: ImportThread,
    private readonly input: { fileName: string; sha256: string; kind: ImportRecordKind },
    private readonly actor: Actor,
    private readonly onBatch: (written: number) => void
  ) {}

  private send(req: WriterRequest): Promise<unknown> {
    return this.thread.send(req)
  }

  async begin(): Promise<void> {
    await this.send({ type: 'begin', input: this.input, actor: this.actor })
  }

  /** Validated and serialised on this thread: the writer thread receives flat rows (prepared-task.ts). */
  add(task: TaskInput): Promise<void> | undefined {
    this.batch.push(prepareTask(task))
    // A promise only when a batch ships: the reader awaits those, and reads on otherwise.
    return this.batch.length >= BATCH_TASKS ? this.ship() : undefined
  }

  private async ship(): Promise<void> {
    if (this.batch.length === 0) return
    const p = this.send({ type: 'batch', tasks: this.batch }).then((v) => {
      const r = v as { written: number; skipped: number; moves: number; seats: number }
      this.totals.tasks += r.written
      this.totals.skipped += r.skipped
      this.totals.moves += r.moves
      this.totals.seats += r.seats
      this.onBatch(this.totals.tasks)
    })
    p.catch(() => undefined) // surfaced by the await below or by flush()
    this.batch = []
    this.inFlight.push(p)
    // Two batches in flight: one being written, one waiting — the parser never runs far ahead.
    if (this.inFlight.length >= 2) await this.inFlight.shift()
  }

  async flush(): Promise<void> {
    await this.ship()
    while (this.inFlight.length > 0) await this.inFlight.shift()
  }

  async publish(goldAs: { source: LabelSource; reviewer: string } | null): Promise<ImportRecord> {
    try {
      await this.flush()
      return (await this.send({ type: 'publish', goldAs, actor: this.actor })) as ImportRecord
    } finally {
      await this.close()
    }
  }

  async abandon(): Promise<void> {
    try {
      await Promise.allSettled(this.inFlight.splice(0))
      if (!this.thread.broken) await this.send({ type: 'abandon' })
    } catch (e) {
      // One line, not a stack: the import's own error was already reported; its rows stay invisible,
      // its lock goes with the writer thread's store, and the next import or open sweeps them.
      console.error(`[arbiter] could not abandon a failed import: ${e instanceof Error ? e.message : String(e)}`)
    } finally {
      await this.close()
    }
  }

  private close(): Promise<void> {
    return this.thread.close()
  }
}
