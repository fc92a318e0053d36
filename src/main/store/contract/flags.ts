/**
 * Flags: "can't decide", with a reason. An append-only record of who flagged a
 * task, why and when — not a label: the task keeps its state and stays in every queue, marked.
 */
import type { Actor, WriteResult } from './common'
import type { SealedViewer, TaskFilter } from './queue'

export type FlagRecord = {
  id: string
  taskId: string
  reviewer: string
  reason: string
  at: string
  sessionId: string
}

export type FlagInput = { taskId: string; reason: string }

export interface FlagStore {
  /** Appends a flag and ends the caller's own hold on the task (the flag hands it back to the queue). */
  flagTask(input: FlagInput, actor: Actor): Promise<WriteResult<FlagRecord>>
  /** A task's flags, in recording order. */
  taskFlags(taskId: string): Promise<FlagRecord[]>
  /** Flags of the next `limit` tasks the filter selects (task-id, then recording order), as filteredLabels. */
  filteredFlags(filter: TaskFilter, afterTaskId: string | null, limit: number, viewer?: SealedViewer | null, drawnFor?: string | null): Promise<{ rows: FlagRecord[]; lastTaskId: string | null }>
}
