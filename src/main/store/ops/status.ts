/** Counts over visible data (the console's header): flat however many tasks the store holds. */
import type { StoreCounts } from '../contract'
import { decisionsTable } from '../fit-decisions'
import { LIVE_LABEL } from '../label-rules'
import { rowOf, type Plan } from '../plan'
import { decidedCounts } from './decided-counts'
import type { Dialect } from './dialect'
import { latestDecidedFitId } from './fits'

const PUBLISHED = `JOIN imports i ON i.id = x.import_id AND i.state = 'published'`

function* n(sql: string, ...params: unknown[]): Plan<number> {
  return (yield* rowOf<{ n: number }>(sql, ...params))?.n ?? 0
}

export function* counts(d: Dialect): Plan<StoreCounts> {
  const live = LIVE_LABEL('l')
  const fitId = yield* latestDecidedFitId(d)
  // A live label makes a task `human`: it leaves the acted / deferred counts, as it leaves the queue.
  // Only a fit decided before its counts were stored (decided-counts.ts) counts its rows.
  function* decisions(where: string, ...params: unknown[]): Plan<number> {
    if (fitId === null) return 0
    return yield* n(
      `SELECT count(*) AS n FROM ${decisionsTable(fitId)} d WHERE ${where}
       AND NOT EXISTS (SELECT 1 FROM labels l WHERE l.task_id = d.task_id AND ${live})`,
      ...params
    )
  }
  const stored = fitId === null ? null : yield* decidedCounts(d, fitId)
  // A published import's counts are final and its tasks can never be deleted: summing the task
  // imports (a label import counts the tasks it labeled) is exact, and flat however many tasks they hold.
  const imported = (what: 'tasks' | 'moves') =>
    n(`SELECT coalesce(sum(${d.jsonInt('i.counts', what)}), 0) AS n FROM imports i WHERE i.state = 'published' AND i.kind <> 'labels'`)
  return {
    tasks: yield* imported('tasks'),
    seats: yield* n(`SELECT count(DISTINCT x.id) AS n FROM seats x ${PUBLISHED}`),
    moves: yield* imported('moves'),
    // Labels can only be written on visible tasks, and a published import stays published.
    labels: yield* n(`SELECT count(*) AS n FROM labels l WHERE ${live}`),
    labeledTasks: yield* n(`SELECT count(DISTINCT l.task_id) AS n FROM labels l WHERE ${live}`),
    deferred: stored?.deferred ?? (yield* decisions(`decision = 'defer'`)),
    acted: stored?.acted ?? (yield* decisions(`decision = 'act'`)),
    spotCheck: stored?.spotCheck ?? (yield* decisions('spot_check = ?', d.bool(true))),
    fits: yield* n('SELECT count(*) AS n FROM fits')
  }
}
