/**
 * SQLite's bulk writes of a fit's decisions: a page of them, the rows going in as float64 BLOBs
 * bound straight from the page's columns; and a re-decide's copy of its parent's rows (below). The
 * rest of a fit's life is written once for both backends (../ops/fits.ts).
 */
import { StoreError, type RedecideRowsInput, type DecisionPage } from '../contract'
import { badPosterior, twice } from '../decision-check'
import { checkRedecideRows } from '../decision-copy'
import { countPage, decisionsTableOf, undecidedFit } from '../ops/fits'
import { parseStringArray } from '../rows'
import type { Sql } from './connection'
import { SQLITE } from './dialect'
import { runPlan } from './plan-driver'
import { bytesOf, candidateOrder, gatheredBytes, storedWhyLength, WHY_STRIDE } from '../decision-numbers'
import { ACT, checkDecisionPage, roundAnswerTexts, SPOT } from '../decision-page'
import { numberKey, roundKeysOf } from '../round-keys'
import { compareIds } from '../tally-pack'
import { DECISION_COLUMNS, decisionsTable } from '../fit-decisions'

/** What a decision row copies or checks from its task: [id, candidates (JSON), created_at, group]. */
type TaskFacts = [string, string, string, string | null]

const PUBLISHED_TASK = `SELECT t.id, t.candidates, t.created_at, t.grp FROM tasks t
  CROSS JOIN imports i ON i.id = t.import_id AND i.state = 'published'`

/**
 * The page's published tasks by id. A decide's page is a run of consecutive task ids, so they are
 * read by one walk of the id index over the page's range (cheaper than a lookup per task); a
 * page whose ids are scattered — the walk meets more than a few tasks per row —
 * has the rest looked up one by one.
 */
function pageTasks(q: Sql, ids: readonly string[]): (taskId: string) => TaskFacts | undefined {
  let lo = ids[0]
  let hi = lo
  for (const id of ids) {
    if (compareIds(id, lo) < 0) lo = id
    if (compareIds(id, hi) > 0) hi = id
  }
  const limit = 4 * ids.length + 64
  const walked = q.stmt(`${PUBLISHED_TASK} WHERE t.id >= ? AND t.id <= ? ORDER BY t.id LIMIT ?`).raw(true).all(lo, hi, limit) as TaskFacts[]
  const found = new Map<string, TaskFacts>()
  for (const t of walked) found.set(t[0], t)
  if (walked.length < limit) return (id) => found.get(id)
  const one = q.stmt(`${PUBLISHED_TASK} WHERE t.id = ?`).raw(true)
  return (id) => found.get(id) ?? (one.get(id) as TaskFacts | undefined)
}

/**
 * One page of an undecided fit's decisions, in one transaction. The rows stay out of sight until
 * `finishDecisions` sets the fit's `decided_at` (every reader goes through the current, decided
 * fit), so a decide over a million tasks streams its rows in pages, in bounded memory, and a kill
 * leaves at worst an undecided fit with some rows no one sees. The fit's counts grow with each
 * page in the same transaction, so they always equal its rows. The table has no index yet: rows
 * go in as appends to its key, and the queue orders are sorted once, at the finish. Number lists
 * go in as float64 BLOBs (../decision-numbers.ts) — views of the page's own columns — the
 * posterior in its task's candidate order.
 */
export function appendDecisionPage(q: Sql, fitId: string, page: DecisionPage): number {
  runPlan(q, undecidedFit(SQLITE, fitId))
  const { acted, spot } = checkDecisionPage(page)
  const n = page.taskIds.length
  if (n === 0) return 0
  const table = runPlan(q, decisionsTableOf(SQLITE, fitId))
  const taskOf = pageTasks(q, page.taskIds)
  // Prepared once per page: the statement cache keys on the SQL text, a lookup per call.
  const insert = q.stmt(
    `INSERT INTO ${table} (${DECISION_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
  )
  const roundAnswers = roundAnswerTexts(page)
  // A council's tasks share a handful of candidate lists: each text is parsed, and each pairing
  // with one of the page's lists compared, once.
  const known = new Map<string, { candidates: string[]; orders: (Int32Array | null)[] }>()
  for (let i = 0; i < n; i++) {
    const id = page.taskIds[i]
    const t = taskOf(id)
    if (t === undefined) throw new StoreError('not_found', `no task ${id}`, { taskId: id, fitId })
    let k = known.get(t[1])
    if (k === undefined) known.set(t[1], (k = { candidates: parseStringArray(t[1]), orders: [] }))
    const { candidates } = k
    const l = page.listOf[i]
    let order = k.orders[l]
    if (order === undefined) k.orders[l] = order = candidateOrder(candidates, page.lists[l])
    const answer = page.answers[i]
    if (answer !== null && !candidates.includes(answer)) {
      throw new StoreError('bad_input', `answer "${answer}" is not a candidate of task ${id}`, { taskId: id, fitId, candidates })
    }
    if (order === null) throw badPosterior(id, candidates, page.lists[l], fitId)
    const at = page.posteriorAt[i]
    const posterior = order.length === 0 ? bytesOf(page.posteriors, at, candidates.length) : gatheredBytes(page.posteriors, at, order)
    const flags = page.flags[i]
    try {
      // The task's immutable created_at and group are copied, so each queue order is one index.
      insert.run(
        id, flags & ACT ? 'act' : 'defer', flags & SPOT ? 1 : 0, answer, posterior, nullIfNaN(page.stopRounds[i]), nullIfNaN(page.gaps[i]),
        page.boundLength[i] < 0 ? null : bytesOf(page.bounds, page.boundAt[i], page.boundLength[i]), nullIfNaN(page.disagreements[i]), t[2], t[3],
        page.kLength[i] < 0 ? null : bytesOf(page.ks, page.kAt[i], page.kLength[i]),
        Number.isNaN(page.whys[i * WHY_STRIDE]) ? null : bytesOf(page.whys, i * WHY_STRIDE, storedWhyLength(page.whys, i * WHY_STRIDE)), page.reasons[i],
        nullIfNaN(page.peaks[i]), page.boundLength[i] < 0 ? null : roundKeysOf(page.bounds, page.boundAt[i], page.boundLength[i]), roundAnswers(i)
      )
    } catch (e) {
      if ((e as { code?: string }).code === 'SQLITE_CONSTRAINT_PRIMARYKEY') throw twice(id)
      throw e
    }
  }
  return runPlan(q, countPage(fitId, n, acted, spot))
}

const nullIfNaN = (x: number): number | null => (Number.isNaN(x) ? null : x)

/*
 * A re-decide under another budget, on SQLite: the parent fit's rows copied into the new fit's
 * table with their verdict recomputed in SQL (cheaper than refitting and deciding every task
 * again). Only the verdict depends on the
 * budget (docs/engine.md §8.8), and a row keeps what it needs (migration 9): per round, L_t as a key that
 * sorts as the number (../round-keys.ts) and Ŷ_t; and max_t L_t. So, with θ = 1 − α:
 *
 *     τ = the first t with key(L_t) ≥ key(θ)    (none: defer; never for a row without a usable k,
 *                                                 nor when the budget defers every task)
 *     answer = Ŷ_τ, else Ŷ_{T−1};   gap = θ − max_t L_t;   reason = the budget's, else the row's
 *
 * the same numbers the deciding thread computes (the integration test compares every column of both
 * paths). A copy goes a chunk at a time, each chunk one transaction like a decide's page, so a label
 * waits for one chunk, not the whole copy. PostgreSQL runs the same SQL (postgres/fits.ts).
 */

/** The copy's statement for T rounds (the text is the statement cache's key: one per T and bound). */
function copySql(child: string, parent: string, rounds: number, from: boolean): string {
  // :reason defers every task; a row whose reason is set (its 𝒦_used was empty) never acts.
  const crossing = Array.from({ length: rounds }, (_, t) => `WHEN substr(p.round_keys, ${8 * t + 1}, 8) >= :key THEN ${t}`).join(' ')
  const tau = `(CASE WHEN :reason IS NOT NULL OR p.reason IS NOT NULL THEN NULL ${crossing} END)`
  return `INSERT INTO ${child} (${DECISION_COLUMNS})
    SELECT p.task_id, CASE WHEN ${tau} IS NULL THEN 'defer' ELSE 'act' END, p.spot_check,
      json_extract(p.round_answers, '$[' || coalesce(${tau}, ${rounds - 1}) || ']'), p.posterior, ${tau}, :threshold - p.peak,
      p.bound, p.disagreement, p.task_created_at, p.task_group, p.ks, p.why, coalesce(:reason, p.reason), p.peak, p.round_keys, p.round_answers
    FROM ${parent} p ${from ? 'WHERE p.task_id > :after' : ''} ORDER BY p.task_id LIMIT :limit`
}

export function redecideRows(q: Sql, fitId: string, copy: RedecideRowsInput): { copied: number; last: string | null } {
  checkRedecideRows(fitId, copy)
  runPlan(q, undecidedFit(SQLITE, fitId))
  const child = runPlan(q, decisionsTableOf(SQLITE, fitId))
  const parent = decisionsTable(copy.parentFitId)
  const from = copy.afterTaskId !== null
  const params = { key: numberKey(copy.threshold), threshold: copy.threshold, reason: copy.reason, limit: copy.limit, ...(from ? { after: copy.afterTaskId } : {}) }
  const copied = q.stmt(copySql(child, parent, copy.rounds, from)).run(params).changes
  if (copied === 0) return { copied, last: copy.afterTaskId }
  const c = q.stmt(
    `SELECT count(*) AS n, coalesce(sum(decision = 'act'), 0) AS acted, coalesce(sum(spot_check), 0) AS spot, max(task_id) AS last
     FROM ${child} ${from ? 'WHERE task_id > ?' : ''}`
  ).get(...(from ? [copy.afterTaskId] : [])) as { n: number; acted: number; spot: number; last: string }
  runPlan(q, countPage(fitId, c.n, c.acted, c.spot))
  return { copied, last: c.last }
}
