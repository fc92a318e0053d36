/**
 * How many of a fit's tasks are still acted, deferred and spot-checked (a live label makes a task
 * `human` and takes it out of all three), without counting the fit's decisions: the counts stored
 * with them minus the labeled tasks among them. The cost grows with the labels, not the tasks, so
 * the console's counts and queue total stay flat on a million-task database.
 *
 * Where the dialect keeps them (SQLite), the labeled tasks of the current fit are kept counted as
 * of a label seq (fit_labeled_counts, SQLite migration 10), and a read counts only the tasks
 * whose labels changed since: a page costs the same with 10 labels or 100,000.
 */
import { decisionsTable } from '../fit-decisions'
import { LIVE_LABEL } from '../label-rules'
import { rowOf, rowsOf, run, type Plan } from '../plan'
import type { Dialect } from './dialect'

/**
 * The fit's labeled tasks by decision kind (`act`, `defer`, each with `+spot` when spot-checked),
 * from the fit's decisions `table` (../fit-decisions.ts). No parameters.
 *
 * The labeled tasks drive it, each followed by one probe of the fit's decisions by their primary
 * key (task_id), so the cost grows with the live labels and never with the fit's
 * decisions. The probe is a correlated scalar subquery on purpose: neither planner turns one
 * into a join, so it cannot choose what PostgreSQL chose for a plain join at 100,000 tasks — a
 * hash join over all 99,000 decision rows (a call under load took the queue page's whole
 * budget). A task has at most one decision per fit, so the subquery yields one value or NULL.
 * MATERIALIZED (both dialects): SQLite would otherwise copy the probe into the outer WHERE and
 * GROUP BY and run it twice per task.
 */
export const LABELED_BY_DECISION = (table: string): string => `WITH k AS MATERIALIZED (
    SELECT (SELECT d.decision || CASE WHEN d.spot_check THEN '+spot' ELSE '' END
            FROM ${table} d WHERE d.task_id = lt.task_id) AS kind
    FROM (SELECT DISTINCT l.task_id FROM labels l WHERE ${LIVE_LABEL('l')}) lt
  )
  SELECT kind, count(*) AS n FROM k WHERE kind IS NOT NULL GROUP BY kind`

export type DecidedCounts = { acted: number; deferred: number; spotCheck: number }

export type StoredCounts = { all: number; deferred: number | null; spot: number | null }

/** The fit's stored counts, or null for a fit decided before they were stored (count the rows). */
export const SELECT_STORED_COUNTS =
  'SELECT decision_count AS "all", deferred_count AS deferred, spot_count AS spot FROM fits WHERE id = ?'

/** The stored counts minus the labeled tasks (rows of LABELED_BY_DECISION). */
export function subtractLabeled(fit: StoredCounts | undefined, labeled: readonly { kind: string; n: number }[]): DecidedCounts | null {
  if (fit === undefined || fit.deferred === null || fit.spot === null) return null
  const out: DecidedCounts = { acted: fit.all - fit.deferred, deferred: fit.deferred, spotCheck: fit.spot }
  for (const r of labeled) {
    if (r.kind.startsWith('act')) out.acted -= r.n
    else out.deferred -= r.n
    if (r.kind.endsWith('+spot')) out.spotCheck -= r.n
  }
  return out
}

type KindCount = { kind: string; n: number }

/**
 * What LABELED_BY_DECISION's rows changed by since the labels up to seq `?` (three parameters, all
 * that seq): for each task with a label row written since, its decision kind and whether it has a
 * live label now minus whether it had one then. Labels are append-only, so a task with no row
 * since is as it was. `c` is materialized so that the new rows are a range of the seq, not a walk
 * of every label in task order (SQLite's choice for the DISTINCT otherwise).
 */
export const LABELED_CHANGE_SINCE = (table: string, d: Dialect): string => `WITH c AS MATERIALIZED (
    SELECT task_id FROM labels WHERE ${d.seq} > ?
  ), t AS MATERIALIZED (
    SELECT DISTINCT task_id FROM c
  ), k AS MATERIALIZED (
    SELECT (SELECT d.decision || CASE WHEN d.spot_check THEN '+spot' ELSE '' END
            FROM ${table} d WHERE d.task_id = t.task_id) AS kind,
      CASE WHEN EXISTS (SELECT 1 FROM labels l WHERE l.task_id = t.task_id AND ${LIVE_LABEL('l')}) THEN 1 ELSE 0 END AS live_now,
      CASE WHEN EXISTS (SELECT 1 FROM labels l WHERE l.task_id = t.task_id AND l.${d.seq} <= ? AND l.label IS NOT NULL
        AND NOT EXISTS (SELECT 1 FROM labels s WHERE s.supersedes = l.id AND s.${d.seq} <= ?)) THEN 1 ELSE 0 END AS live_then
    FROM t
  )
  SELECT kind, sum(live_now - live_then) AS n FROM k WHERE kind IS NOT NULL GROUP BY kind`

type KeptRow = { seq: number; act: number; act_spot: number; defer: number; defer_spot: number }

const KINDS = [['act', 'act'], ['act_spot', 'act+spot'], ['defer', 'defer'], ['defer_spot', 'defer+spot']] as const

/** The fit's labeled tasks by kind now, and the label seq they are as of. */
function* labeledNow(d: Dialect, fitId: string): Plan<{ seq: number | null; rows: KindCount[] }> {
  const table = decisionsTable(fitId)
  if (!d.keepsLabeledCounts) return { seq: null, rows: yield* rowsOf<KindCount>(LABELED_BY_DECISION(table)) }
  const seq = Number((yield* rowOf<{ seq: number }>(`SELECT coalesce(max(${d.seq}), 0) AS seq FROM labels`))?.seq ?? 0)
  const kept = yield* rowOf<KeptRow>('SELECT label_seq AS seq, act, act_spot, defer, defer_spot FROM fit_labeled_counts WHERE fit_id = ?', fitId)
  if (kept === undefined) return { seq, rows: yield* rowsOf<KindCount>(LABELED_BY_DECISION(table)) }
  const by = new Map<string, number>(KINDS.map(([column, kind]) => [kind, kept[column]]))
  if (seq > kept.seq) {
    for (const r of yield* rowsOf<KindCount>(LABELED_CHANGE_SINCE(table, d), kept.seq, kept.seq, kept.seq)) by.set(r.kind, (by.get(r.kind) ?? 0) + r.n)
  }
  // A count below zero means the kept row was not what its seq says (a hand edit, a bad restore):
  // count afresh, and the write that follows keeps the right row. Never a refused label.
  if ([...by.values()].some((n) => n < 0)) return { seq, rows: yield* rowsOf<KindCount>(LABELED_BY_DECISION(table)) }
  return { seq, rows: [...by].map(([kind, n]) => ({ kind, n })) }
}

/** Null for a fit decided before the counts were stored: the caller counts the rows. */
export function* decidedCounts(d: Dialect, fitId: string): Plan<DecidedCounts | null> {
  const fit = yield* rowOf<StoredCounts>(SELECT_STORED_COUNTS, fitId)
  if (fit === undefined || fit.deferred === null || fit.spot === null) return null
  return subtractLabeled(fit, (yield* labeledNow(d, fitId)).rows)
}

/**
 * Inside a write (a label's, or the fit's finish): brings the kept counts of `fitId` up to the
 * labels now, and drops any other fit's (a read of an older fit counts afresh). A no-op where the
 * dialect keeps none, or for a fit without stored counts.
 */
export function* keepLabeledCounts(d: Dialect, fitId: string | null): Plan<void> {
  if (!d.keepsLabeledCounts || fitId === null) return
  const fit = yield* rowOf<StoredCounts>(SELECT_STORED_COUNTS, fitId)
  yield* run('DELETE FROM fit_labeled_counts WHERE fit_id <> ?', fitId)
  if (fit === undefined || fit.deferred === null || fit.spot === null) return
  const { seq, rows } = yield* labeledNow(d, fitId)
  const n = (kind: string) => rows.find((r) => r.kind === kind)?.n ?? 0
  yield* run(
    `INSERT INTO fit_labeled_counts (fit_id, label_seq, act, act_spot, defer, defer_spot) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (fit_id) DO UPDATE SET label_seq = excluded.label_seq, act = excluded.act, act_spot = excluded.act_spot,
       defer = excluded.defer, defer_spot = excluded.defer_spot`,
    fitId, seq, ...KINDS.map(([, kind]) => n(kind))
  )
}
