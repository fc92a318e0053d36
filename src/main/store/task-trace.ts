/** A task's head row, its unpacked moves and its seats' models → TaskTrace, shared by both backends. */
import { parseStringArray } from './rows'
import type { TaskTrace } from './contract'

export type TaskHead = {
  id: string
  question: string | null
  candidates: string
  grp: string | null
  created_at: string
  version: number
  import_id: string
  file_name: string
  moves: string
}

export function toTaskTrace(head: TaskHead, moves: TaskTrace['moves'], models: Record<string, string | null>): TaskTrace {
  return {
    id: head.id,
    question: head.question,
    candidates: parseStringArray(head.candidates),
    group: head.grp,
    createdAt: head.created_at,
    version: head.version,
    importId: head.import_id,
    fileName: head.file_name,
    moves,
    models
  }
}
