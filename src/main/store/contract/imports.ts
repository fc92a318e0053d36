/** Imports: staged batches made visible by one publish, and label files appended in one write. */
import type { ImportState, LabelSource, Shell } from '../../../shared/vocabularies'
import type { Actor, WriteResult } from './common'
import type { ExistingTask, PreparedTask, SeatInput, TaskInput } from './tasks'

/** What a stored import was (the console's IMPORT_KINDS are what a file may be read as). */
export const IMPORT_RECORD_KINDS = ['traces', 'crowd-csv', 'labels', 'demo'] as const
export type ImportRecordKind = (typeof IMPORT_RECORD_KINDS)[number]

/** Running totals of what an import wrote (kept per batch, so publishing stays one small write). */
/** `labels`: labels the import recorded (a label file, or gold with `--gold-as`). */
export type ImportCounts = { tasks: number; skipped: number; moves: number; seats: number; labels: number }

export type ImportRecord = {
  id: string
  fileName: string
  sha256: string
  kind: ImportRecordKind
  state: ImportState
  createdAt: string
  publishedAt: string | null
  counts: ImportCounts
  /** The reviewer who began it (beginImport's actor). */
  createdBy: string
}

export type BeginImportInput = { fileName: string; sha256: string; kind: ImportRecordKind }

export type ImportBatch = {
  /** Tasks as read, or already validated and serialised by `prepareTask` (see prepared-task.ts). */
  tasks: (TaskInput | PreparedTask)[]
  /** Seats declared outside any task (e.g. a file header); seats of tasks and moves are implied. */
  seats?: SeatInput[]
}

export type ImportBatchResult = { written: number; skipped: number; moves: number; seats: number }

export type PublishOptions = { goldAs?: { source: LabelSource; reviewer: string } | null }

export type LabelImportRow = { taskId: string; label: string; source: LabelSource; reviewer: string; at: string; note: string | null }

/**
 * Which staged imports a sweep looks at: those of one file's content (its sha256), those named
 * (e.g. the imports holding tasks a file is about to write), or — at open — every one.
 */
export type SweepTarget = { sha256: string } | { importIds: string[] } | 'all'

/** A staged import whose importer is alive (it holds the import's lock): who began it, where, and since when. */
export type LiveImport = { id: string; fileName: string; createdBy: string; shell: Shell; sessionId: string; since: string }

/** What a sweep did: the imports it deleted (their importer was gone, or they were abandoned), and the live ones it left. */
export type ImportSweep = { swept: string[]; live: LiveImport[] }

/**
 * Who imports; without either flag (the CLI), the file's rows as they are.
 * - `fromConsole` (the desktop app or a browser): no row may be `random` — only Calibrate's blind
 *   draw makes one — else `unauthorized` and nothing is written;
 * - `asCaller` (over a per-reviewer login; implies `fromConsole`): the labels are the actor's own.
 *   Every row must name the actor as reviewer, else `unauthorized` and nothing is written; each
 *   label respects other sessions' live holds (a `conflict`, as a resolve), supersedes the actor's
 *   own live label on its task, and gets its own `label.import` audit row.
 */
export type ImportLabelsInput = {
  fileName: string
  sha256: string
  kind: ImportRecordKind
  labels: LabelImportRow[]
  fromConsole?: boolean
  asCaller?: boolean
}

/**
 * The staging steps of an import (begin, batches, abandon) touch only invisible rows and write no
 * audit row, so a failed import leaves no trace (docs/formats.md, `import`); its publish is audited.
 *
 * Ownership is live, not a timer: the store that begins an import holds its lock (SQLite: an
 * exclusive lock on a side file; PostgreSQL: an advisory lock on a connection of its own) until it
 * publishes, abandons or closes — or its process dies. A staged import whose lock can be taken is
 * dead, and is swept (ops/import-owners.ts).
 */
export interface ImportStore {
  /**
   * Opens a staged (invisible) import and takes its lock; first sweeps the dead staged imports of
   * the same content (sha256).
   */
  beginImport(input: BeginImportInput, actor: Actor): Promise<WriteResult<ImportRecord>>
  /** One transaction per batch; a task already present with the same content is skipped. */
  writeImportBatch(importId: string, batch: ImportBatch): Promise<WriteResult<ImportBatchResult>>
  /**
   * Makes every row of the import visible by flipping one row. With `goldAs`, the gold of the
   * tasks this import wrote is recorded as labels of that source and reviewer, in the same
   * transaction (docs/engine.md §10, `--gold-as`). Checks in its transaction that the import is still
   * staged and this store's own; else fails with "import … was taken over". Releases the lock.
   */
  publishImport(importId: string, actor: Actor, opts?: PublishOptions): Promise<WriteResult<ImportRecord>>
  /**
   * Marks a staged import abandoned; its rows stay invisible and are swept by the next sweep. Its
   * lock is released even when the write fails (a full disk), so the import is dead, not stuck.
   */
  abandonImport(importId: string): Promise<WriteResult<ImportRecord>>
  /**
   * Deletes the target's dead staged imports (their lock could be taken) and abandoned ones, each in
   * its own transaction; reports the live ones. Runs at open (`'all'`) and at every import's start.
   */
  sweepDeadImports(target: SweepTarget): Promise<WriteResult<ImportSweep>>
  /** The published (else staged) import of a file with this sha256; abandoned ones are ignored. */
  findImportBySha(sha256: string): Promise<ImportRecord | null>
  /** Existing rows for these task ids (published or staged; abandoned ones are gone or ignored). */
  existingTasks(taskIds: string[]): Promise<ExistingTask[]>
  /** Models of the published seats that declared one (seat id → model), to refuse a clash before writing. */
  seatModels(): Promise<Record<string, string>>
  /** Appends labels of a file (and publishes its import record) in one transaction. */
  importLabels(input: ImportLabelsInput, actor: Actor): Promise<WriteResult<ImportRecord>>
  listImports(limit: number): Promise<ImportRecord[]>
}
