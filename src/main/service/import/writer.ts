/**
 * The write half of a task import, shared by trace JSONL and label-aggregation CSV: checks against
 * what the database already holds (before anything is written), then the staged batches and the
 * one publish (docs/architecture.md, "Imports").
 */
import type { Actor, ExistingTask, ImportRecordKind, ImportRecord, LabelSource, Store, TaskInput } from '../../store'
import type { Problems } from './problems'

export const BATCH_TASKS = 2000
// One statement per 10,000 ids: a million-task import asks about every id of its file.
const LOOKUP_CHUNK = 10_000

export type ImportProgress = (p: { phase: string; done: number; total: number; message: string | null }) => void

/** What pass 1 keeps of one valid task (a million of these may be held): where it is, and its content hash. */
export type Candidate = { task: string; line: number; sha: string }

/**
 * Tasks already present with the same content are skipped (re-import is a no-op); a task id that
 * arrives with different content, or that another import is still writing, is a problem on its
 * line naming both files. Returns the ids to skip.
 */
export async function checkAgainstStore(
  store: Store,
  file: string,
  tasks: Map<string, Candidate>,
  problems: Problems
): Promise<Set<string>> {
  const skip = new Set<string>()
  const ids = [...tasks.keys()]
  const existing: ExistingTask[] = []
  for (let i = 0; i < ids.length; i += LOOKUP_CHUNK) existing.push(...(await store.existingTasks(ids.slice(i, i + LOOKUP_CHUNK))))
  // A staged import holding these tasks is either running (its lock is held) or dead: swept now,
  // its tasks are free to write (docs/architecture.md, "Imports": ownership is live, not a timer).
  const staged = [...new Set(existing.filter((e) => e.state === 'staged').map((e) => e.importId))]
  const live = new Map((staged.length === 0 ? [] : (await store.sweepDeadImports({ importIds: staged })).value.live).map((l) => [l.id, l]))
  for (const e of existing) {
    const c = tasks.get(e.taskId) as Candidate
    if (e.state === 'staged') {
      const running = live.get(e.importId)
      if (running === undefined) continue
      problems.add({
        file, line: c.line, task: e.taskId, move: null, rule: 'task-being-imported',
        message: `task ${e.taskId} is being imported from ${e.fileName} (import ${e.importId}) by ${running.createdBy} (${running.shell}, session ${running.sessionId}) since ${running.since}, not yet published; try again when it is`
      })
    } else if (e.contentSha256 === c.sha) skip.add(e.taskId)
    else {
      problems.add({
        file, line: c.line, task: e.taskId, move: null, rule: 'changed-task',
        message: `task ${e.taskId} has different content in ${file} than in ${e.fileName} (import ${e.importId}), which already holds it; a task cannot be changed by re-importing`
      })
    }
  }
  return skip
}

/**
 * A seat id names one agent: a model this file declares for a seat must match the model any
 * published import declared, and the file must not declare two.
 */
export class SeatModels {
  private readonly mine = new Map<string, { model: string; line: number; task: string }>()
  /** A clash is not local to a line (every task of the seat is affected): it refuses the file even with --skip-invalid. */
  clashed = false

  /** Within the file, as it is read. */
  check(file: string, line: number, task: string, seats: readonly { id: string; model?: string }[], problems: Problems): void {
    for (const s of seats) {
      if (s.model === undefined) continue
      const own = this.mine.get(s.id)
      if (own === undefined) this.mine.set(s.id, { model: s.model, line, task })
      else if (own.model !== s.model) {
        this.clashed = true
        problems.add({ file, line, task, move: null, rule: 'seat-model-clash', message: `seat ${s.id} is model "${s.model}" here but "${own.model}" on line ${own.line}; a seat id names one agent. To fix: if these are two agents, give this one its own seat id (e.g. "${s.id}-${s.model}") on its lines; if it is one agent, write the same model on both lines` })
      }
    }
  }

  /** Against the published imports, once the database is open (at each seat's first declaration). */
  checkPublished(file: string, published: Record<string, string>, problems: Problems): void {
    for (const [id, own] of this.mine) {
      const known = published[id]
      if (known !== undefined && known !== own.model) {
        this.clashed = true
        problems.add({ file, line: own.line, task: own.task, move: null, rule: 'seat-model-clash', message: `seat ${id} is model "${own.model}" here but "${known}" in an earlier import; a seat id names one agent. To fix: if this is another agent, give it its own seat id in this file (e.g. "${id}-${own.model}"); if it is the same agent, write its model as "${known}"` })
      }
    }
  }
}

/** Staged batches, then one publish; any failure abandons the staged rows (swept by the next import or open). */
export class StagedWriter {
  private importId: string | null = null
  private batch: TaskInput[] = []
  readonly totals = { tasks: 0, skipped: 0, moves: 0, seats: 0 }

  constructor(
    private readonly store: Store,
    private readonly input: { fileName: string; sha256: string; kind: ImportRecordKind },
    private readonly actor: Actor,
    private readonly onBatch: (written: number) => void
  ) {}

  async begin(): Promise<void> {
    this.importId = (await this.store.beginImport(this.input, this.actor)).value.id
  }

  async add(task: TaskInput): Promise<void> {
    this.batch.push(task)
    if (this.batch.length >= BATCH_TASKS) await this.flush()
  }

  /** Writes what is still batched (publish does it too). */
  async flush(): Promise<void> {
    if (this.batch.length === 0 || this.importId === null) return
    const r = (await this.store.writeImportBatch(this.importId, { tasks: this.batch })).value
    this.batch = []
    this.totals.tasks += r.written
    this.totals.skipped += r.skipped
    this.totals.moves += r.moves
    this.totals.seats += r.seats
    this.onBatch(this.totals.tasks)
  }

  async publish(goldAs: { source: LabelSource; reviewer: string } | null): Promise<ImportRecord> {
    await this.flush()
    if (this.importId === null) throw new Error('publish before begin')
    return (await this.store.publishImport(this.importId, this.actor, { goldAs })).value
  }

  async abandon(): Promise<void> {
    if (this.importId === null) return
    try {
      await this.store.abandonImport(this.importId)
    } catch (e) {
      // One line, not a stack: the import's own error was already reported; its rows stay invisible,
      // its lock is released, and the next import or open sweeps them.
      console.error(`[arbiter] could not abandon a failed import: ${e instanceof Error ? e.message : String(e)}`)
    }
  }
}
