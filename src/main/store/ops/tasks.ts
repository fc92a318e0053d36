/**
 * Reading tasks back with their moves, in file order (the review screen's transcript and the
 * tallies backfill). Published tasks only.
 */
import type { TaskTrace } from '../contract'
import { unpackMoves } from '../packed-moves'
import { rowOf, type Plan } from '../plan'
import { toTaskTrace, type TaskHead } from '../task-trace'

export function* readTaskTrace(id: string): Plan<TaskTrace | null> {
  const head = yield* rowOf<TaskHead>(
    `SELECT t.id, t.question, t.candidates, t.grp, t.created_at, t.version, t.import_id, i.file_name, tm.moves
     FROM tasks t JOIN imports i ON i.id = t.import_id AND i.state = 'published' JOIN task_moves tm ON tm.task_id = t.id
     WHERE t.id = ?`,
    id
  )
  if (head === undefined) return null
  const moves = unpackMoves(head.moves)
  const models: Record<string, string | null> = {}
  for (const m of moves) models[m.seat] = null
  // A seat's model may have been declared by any published import; the task's own import first.
  for (const seat of Object.keys(models)) {
    const row = yield* rowOf<{ model: string }>(
      `SELECT s.model FROM seats s JOIN imports i ON i.id = s.import_id AND i.state = 'published'
       WHERE s.id = ? AND s.model IS NOT NULL ORDER BY s.import_id = ? DESC LIMIT 1`,
      seat, head.import_id
    )
    models[seat] = row?.model ?? null
  }
  return toTaskTrace(head, moves, models)
}

export function* readTaskTraces(ids: string[]): Plan<TaskTrace[]> {
  const out: TaskTrace[] = []
  for (const id of ids) {
    const t = yield* readTaskTrace(id)
    if (t !== null) out.push(t)
  }
  return out
}
