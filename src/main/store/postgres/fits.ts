/**
 * A page of a fit's decisions, PostgreSQL's bulk write: a COPY per chunk of rows (./copy.ts),
 * the number lists as the float64 bytes of the page's own columns
 * (../decision-numbers.ts; migration 0004). The rest of a fit's life is written once for both
 * backends (../ops/fits.ts); the fit row is locked while a page is written: two clients writing one
 * fit's decisions queue up, and the second finds it decided (`conflict`).
 */
import { StoreError, type RedecideRowsInput, type DecisionPage } from '../contract'
import { DECISION_COLUMNS, decisionsTable } from '../fit-decisions'
import { checkRedecideRows } from '../decision-copy'
import { badPosterior, twice } from '../decision-check'
import { bytesOf, candidateOrder, gatheredBytes, storedWhyLength, WHY_STRIDE } from '../decision-numbers'
import { ACT, checkDecisionPage, roundAnswerTexts, SPOT } from '../decision-page'
import { numberKey, roundKeysOf } from '../round-keys'
import { countPage, decisionsTableOf, undecidedFit } from '../ops/fits'
import { parseStringArray } from '../rows'
import type { PgSql } from './connection'
import { copyRows, type CopyField } from './copy'
import { POSTGRES } from './dialect'
import { runPlan } from './plan-driver'

/** Rows per COPY (and per lookup of their tasks). */
const CHUNK = 2000
const DECISION_COLUMN_LIST = DECISION_COLUMNS.split(', ')

const nullIfNaN = (x: number): number | null => (Number.isNaN(x) ? null : x)

type ChunkTask = { candidates: string; created_at: string; grp: string | null }

/**
 * The chunk's published tasks: id → its candidates (JSON text), and the time and group a decision row
 * copies. One probe of the tasks' key (and its import's) per id, in a lateral subquery that its
 * LIMIT keeps the planner from flattening into a join. As a join on `unnest`, right after an import
 * (before autovacuum's first ANALYZE of it) the planner took an import's tasks for a few hundred
 * rows and hashed every published task for each chunk, which made up much of a full decide's time
 * on PostgreSQL; `= ANY` walked all of them instead. The probes read the
 * chunk's rows only, whatever the statistics say.
 */
export const CHUNK_TASKS = `SELECT t.id, t.candidates, t.created_at, t.grp FROM unnest(?::text[]) AS u(id) CROSS JOIN LATERAL (
  SELECT t.id, t.candidates, t.created_at, t.grp FROM tasks t JOIN imports i ON i.id = t.import_id AND i.state = 'published' WHERE t.id = u.id LIMIT 1
) t`

async function chunkTasks(q: PgSql, ids: string[]): Promise<Map<string, ChunkTask>> {
  const rows = await q.all<ChunkTask & { id: string }>(CHUNK_TASKS, ids)
  return new Map(rows.map((r) => [r.id, r]))
}

/**
 * Rows [from, to) of the page, checked against their tasks in page order (a missing task, an answer
 * that is not a candidate, a posterior whose keys are not exactly the candidates: the first such row
 * is the error, and nothing of the page is written), then written in one COPY (copy.ts) with
 * each task's immutable created_at and group copied from its row.
 */
async function insertChunk(q: PgSql, table: string, fitId: string, page: DecisionPage, from: number, to: number): Promise<void> {
  const ids = page.taskIds.slice(from, to)
  const tasks = await chunkTasks(q, ids)
  const known = new Map<string, { candidates: string[]; orders: (Int32Array | null)[] }>()
  const roundAnswers = roundAnswerTexts(page)
  const rows: CopyField[][] = []
  for (let i = from; i < to; i++) {
    const id = page.taskIds[i]
    const task = tasks.get(id)
    if (task === undefined) throw new StoreError('not_found', `no task ${id}`, { taskId: id, fitId })
    const text = task.candidates
    let k = known.get(text)
    if (k === undefined) known.set(text, (k = { candidates: parseStringArray(text), orders: [] }))
    const l = page.listOf[i]
    let order = k.orders[l]
    if (order === undefined) k.orders[l] = order = candidateOrder(k.candidates, page.lists[l])
    const answer = page.answers[i]
    if (answer !== null && !k.candidates.includes(answer)) {
      throw new StoreError('bad_input', `answer "${answer}" is not a candidate of task ${id}`, { taskId: id, fitId, candidates: k.candidates })
    }
    if (order === null) throw badPosterior(id, k.candidates, page.lists[l], fitId)
    const at = page.posteriorAt[i]
    const bounded = page.boundLength[i] >= 0
    // In DECISION_COLUMNS' order.
    rows.push([
      id, page.flags[i] & ACT ? 'act' : 'defer', (page.flags[i] & SPOT) !== 0, answer,
      order.length === 0 ? bytesOf(page.posteriors, at, k.candidates.length) : gatheredBytes(page.posteriors, at, order),
      nullIfNaN(page.stopRounds[i]), nullIfNaN(page.gaps[i]),
      bounded ? bytesOf(page.bounds, page.boundAt[i], page.boundLength[i]) : null,
      nullIfNaN(page.disagreements[i]), task.created_at, task.grp,
      page.kLength[i] < 0 ? null : bytesOf(page.ks, page.kAt[i], page.kLength[i]),
      Number.isNaN(page.whys[i * WHY_STRIDE]) ? null : bytesOf(page.whys, i * WHY_STRIDE, storedWhyLength(page.whys, i * WHY_STRIDE)),
      page.reasons[i], nullIfNaN(page.peaks[i]),
      bounded ? roundKeysOf(page.bounds, page.boundAt[i], page.boundLength[i]) : null, roundAnswers(i)
    ])
  }
  await copyRows(q, table, DECISION_COLUMN_LIST, rows)
}

/**
 * A re-decide's copy of its parent fit's rows, on the server (sqlite/fits.ts says what is
 * recomputed and why it is the deciding thread's arithmetic): one INSERT … SELECT per chunk, its
 * τ worked out once per row in a lateral subquery, the chunk counted from its RETURNING rows.
 */
export async function redecideRows(q: PgSql, fitId: string, copy: RedecideRowsInput): Promise<{ copied: number; last: string | null }> {
  checkRedecideRows(fitId, copy)
  await runPlan(q, undecidedFit(POSTGRES, fitId))
  const child = await runPlan(q, decisionsTableOf(POSTGRES, fitId))
  const parent = decisionsTable(copy.parentFitId)
  const crossing = Array.from({ length: copy.rounds }, (_, t) => `WHEN substring(p.round_keys FROM ${8 * t + 1} FOR 8) >= a.key THEN ${t}`).join(' ')
  const from = copy.afterTaskId !== null
  // The chunk's counts from the inserted rows themselves (RETURNING), not a second read of them.
  const c = (await q.get<{ n: string; acted: string; spot: string; last: string | null }>(
    `WITH a AS (SELECT ?::bytea AS key, ?::float8 AS threshold, ?::text AS reason),
     ins AS (
       INSERT INTO ${child} (${DECISION_COLUMNS})
       SELECT p.task_id, CASE WHEN v.tau IS NULL THEN 'defer' ELSE 'act' END, p.spot_check,
         p.round_answers::json ->> coalesce(v.tau, ${copy.rounds - 1}), p.posterior, v.tau, a.threshold - p.peak,
         p.bound, p.disagreement, p.task_created_at, p.task_group, p.ks, p.why, coalesce(a.reason, p.reason), p.peak, p.round_keys, p.round_answers
       FROM ${parent} p CROSS JOIN a
         CROSS JOIN LATERAL (SELECT CASE WHEN a.reason IS NOT NULL OR p.reason IS NOT NULL THEN NULL ${crossing} END AS tau) v
       ${from ? 'WHERE p.task_id > ?' : ''} ORDER BY p.task_id LIMIT ?
       RETURNING task_id, decision, spot_check)
     SELECT count(*) AS n, count(*) FILTER (WHERE decision = 'act') AS acted, count(*) FILTER (WHERE spot_check) AS spot, max(task_id) AS last FROM ins`,
    numberKey(copy.threshold), copy.threshold, copy.reason, ...(from ? [copy.afterTaskId] : []), copy.limit
  )) as { n: string; acted: string; spot: string; last: string | null }
  const copied = Number(c.n)
  if (copied === 0) return { copied, last: copy.afterTaskId }
  await runPlan(q, countPage(fitId, Number(c.n), Number(c.acted), Number(c.spot)))
  return { copied, last: c.last }
}

/**
 * One page of an undecided fit's decisions (sqlite/fits.ts `appendDecisionPage` says why pages and
 * why no index yet): the page checked as one, the fit row locked, the rows inserted, the fit's
 * running counts raised, in one transaction.
 */
export async function appendDecisionPage(q: PgSql, fitId: string, page: DecisionPage): Promise<number> {
  const { acted, spot } = checkDecisionPage(page)
  await runPlan(q, undecidedFit(POSTGRES, fitId))
  const n = page.taskIds.length
  const table = await runPlan(q, decisionsTableOf(POSTGRES, fitId))
  for (let from = 0; from < n; from += CHUNK) {
    const to = Math.min(n, from + CHUNK)
    const again = await q.get<{ task_id: string }>(`SELECT task_id FROM ${table} WHERE task_id = ANY(?::text[]) LIMIT 1`, page.taskIds.slice(from, to))
    if (again !== undefined) throw twice(again.task_id)
    await insertChunk(q, table, fitId, page, from, to)
  }
  return runPlan(q, countPage(fitId, n, acted, spot))
}
