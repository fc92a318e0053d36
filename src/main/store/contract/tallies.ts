/** Tallies: each task's sufficient statistics, stored per task and packed per import (tally-pack.ts). */
import type { Actor, WriteResult } from './common'
import type { StoredTallies, TallyInput, TaskTrace } from './tasks'

/** One stored pack of up to PACK_TASKS tasks' tallies (tally-pack.ts), as its row. */
export type TallyPackRow = { tasks: number; first_task: string; last_task: string; ids: string; dict: string; meta: Buffer; ints: Buffer }

/** A published import with tasks; `packedTasks`: how many of them its packs hold (0: not packed). */
export type TallySource = { importId: string; tasks: number; packedTasks: number }

export interface TallyStore {
  /** Published tasks' tallies in task-id order after `afterTaskId` (keyset paging). */
  tallyPage(afterTaskId: string | null, limit: number): Promise<StoredTallies[]>
  /** Published imports with tasks, oldest first, and how many of their tasks are packed (tally-pack.ts). */
  tallySources(): Promise<TallySource[]>
  /** One published import's tallies, by task id (to pack them). */
  importTallyPage(importId: string, afterTaskId: string | null, limit: number): Promise<StoredTallies[]>
  /** Part `part` (from 0) of an import's tally packs; null past the last. */
  tallyPack(importId: string, part: number): Promise<TallyPackRow | null>
  /** All of an import's packs, at once; 0 when it was already packed (by another process). */
  saveTallyPacks(importId: string, packs: TallyPackRow[]): Promise<WriteResult<number>>
  /** Published tasks that have no tallies yet (imported before tallies existed). */
  tasksWithoutTallies(limit: number): Promise<TaskTrace[]>
  /** The tallies of these (published) tasks; tasks without tallies are left out. */
  loadTallies(taskIds: string[]): Promise<StoredTallies[]>
  saveTallies(rows: { taskId: string; tallies: TallyInput }[], actor: Actor): Promise<WriteResult<number>>
}
