/**
 * Fits and their decisions. A fit is written once; its decisions are written once — all together,
 * or in pages — into the fit's own table (../fit-decisions.ts), and finishing indexes that table
 * and sets `decided_at`, so a reader never sees a half-decided fit as the current one.
 */
import { randomUUID } from 'node:crypto'
import { badPosterior, twice } from '../decision-check'
import {
  StoreError,
  type Actor,
  type FitInput,
  type FitRecord,
  type SaveDecisionsResult
} from '../contract'
import { checkBound, checkId, checkJsonObject } from '../validate'
import { appendAudit } from './audit'
import type { Sql } from './connection'
import { FIT_COLUMNS, parseStringArray, toFit, type FitRow } from '../rows'
import { decisionsTable, type DecidedFit } from '../fit-decisions'
import { DECISION_INDEXES } from './migrations/0004-decisions-per-fit'
import { DECISIONS_TABLE } from './migrations/0005-decision-numbers'
import { bytesOf, candidateOrder, gatheredBytes, storedWhyLength, WHY_STRIDE } from '../decision-numbers'
import { ACT, checkDecisionPage, SPOT } from '../decision-page'
import type { DecisionPage } from '../contract'
import { compareIds } from '../tally-pack'

export function getFit(q: Sql, id: string): FitRecord | null {
  const row = q.get<FitRow>(`SELECT ${FIT_COLUMNS} FROM fits WHERE id = ?`, id)
  return row === undefined ? null : toFit(row)
}

export function saveFit(q: Sql, now: string, input: FitInput, actor: Actor): FitRecord {
  const method = checkId(input.method, 'method')
  const hyper = checkJsonObject(input.hyperparameters, 'hyperparameters')
  const rel = checkJsonObject(input.reliabilities, 'reliabilities')
  const cert = input.certificate === null ? null : checkJsonObject(input.certificate, 'certificate')
  const metrics = input.metrics === null ? null : checkJsonObject(input.metrics, 'metrics')
  const parent = input.parentFitId === null ? null : checkId(input.parentFitId, 'parentFitId')
  const bound = checkBound(input.bound)
  if (parent !== null && getFit(q, parent) === null) {
    throw new StoreError('not_found', `no fit ${parent} (parentFitId)`, { fitId: parent })
  }
  const id = randomUUID()
  q.run(
    `INSERT INTO fits (id, created_at, method, hyperparameters, reliabilities, certificate, metrics, parent_fit_id, bound)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    id, now, method, JSON.stringify(hyper), JSON.stringify(rel),
    cert === null ? null : JSON.stringify(cert), metrics === null ? null : JSON.stringify(metrics), parent, bound
  )
  appendAudit(q, now, actor, 'fit.save', id, bound === null ? { method, parentFitId: parent } : { method, parentFitId: parent, bound })
  const fit = getFit(q, id)
  if (fit === null) throw new StoreError('internal', `fit ${id} vanished after insert`)
  return fit
}

/** Newest first; `created_at` ties (same millisecond) fall back to insertion order. */
export function latestFit(q: Sql): FitRecord | null {
  const row = q.get<FitRow>(`SELECT ${FIT_COLUMNS} FROM fits ORDER BY created_at DESC, rowid DESC LIMIT 1`)
  return row === undefined ? null : toFit(row)
}

/** The fit whose decisions the console shows: the newest one that has them. */
export function latestDecidedFit(q: Sql): DecidedFit | null {
  const row = q.get<{ id: string; decided_at: string; method: string }>(
    'SELECT id, decided_at, method FROM fits WHERE decided_at IS NOT NULL ORDER BY created_at DESC, rowid DESC LIMIT 1'
  )
  return row === undefined ? null : { id: row.id, decidedAt: row.decided_at, method: row.method }
}

export function latestDecidedFitId(q: Sql): string | null {
  return latestDecidedFit(q)?.id ?? null
}

/** The fit's table, created empty on its first page (a fit that is never decided has none). */
function tableOf(q: Sql, fitId: string): string {
  const name = decisionsTable(fitId)
  if (q.get(`SELECT 1 AS one FROM sqlite_master WHERE type = 'table' AND name = ?`, name) === undefined) q.db.exec(DECISIONS_TABLE(name))
  return name
}

/** What a decision row copies or checks from its task: [id, candidates (JSON), created_at, group]. */
type TaskFacts = [string, string, string, string | null]

const PUBLISHED_TASK = `SELECT t.id, t.candidates, t.created_at, t.grp FROM tasks t
  CROSS JOIN imports i ON i.id = t.import_id AND i.state = 'published'`

/**
 * The page's published tasks by id. A decide's page is a run of consecutive task ids, so they are
 * read by one walk of the id index over the page's range (half the time of a lookup per task, at a
 * million tasks); a page whose ids are scattered — the walk meets more than a few tasks per row —
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
  undecidedFit(q, fitId)
  const { acted, spot } = checkDecisionPage(page)
  const n = page.taskIds.length
  if (n === 0) return 0
  const table = tableOf(q, fitId)
  const taskOf = pageTasks(q, page.taskIds)
  // Prepared once per page: the statement cache keys on the SQL text, a lookup per call.
  const insert = q.stmt(
    `INSERT INTO ${table} (task_id, decision, spot_check, answer, posterior, stop_round, gap, bound, disagreement,
       task_created_at, task_group, ks, why, reason) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
  )
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
        Number.isNaN(page.whys[i * WHY_STRIDE]) ? null : bytesOf(page.whys, i * WHY_STRIDE, storedWhyLength(page.whys, i * WHY_STRIDE)), page.reasons[i]
      )
    } catch (e) {
      if ((e as { code?: string }).code === 'SQLITE_CONSTRAINT_PRIMARYKEY') throw twice(id)
      throw e
    }
  }
  q.run(
    `UPDATE fits SET decision_count = decision_count + ?, deferred_count = coalesce(deferred_count, 0) + ?,
       spot_count = coalesce(spot_count, 0) + ? WHERE id = ?`,
    n, n - acted, spot, fitId
  )
  return n
}

const nullIfNaN = (x: number): number | null => (Number.isNaN(x) ? null : x)

const SORT_THREADS = 4

/**
 * Builds a filled decisions table's queue indexes, each sort helped by four more threads: the
 * sorter's helpers spend much of their time waiting on memory, so even on 2 cores four of them
 * were faster than one (a million rows' four indexes in 1.5–1.7 s against 1.8–2.2 s).
 */
export function indexDecisions(q: Sql, table: string): void {
  q.db.pragma(`threads = ${SORT_THREADS}`)
  try {
    q.db.exec(DECISION_INDEXES(table))
  } finally {
    q.db.pragma('threads = 0')
  }
}

/** Indexes the fit's table and makes its decisions (every page appended) the current ones, once. */
export function finishDecisions(q: Sql, now: string, fitId: string, actor: Actor): SaveDecisionsResult {
  undecidedFit(q, fitId)
  const table = tableOf(q, fitId)
  // A sort per index over the finished table: several times cheaper than keeping four indexes
  // ordered row by row (fit-decisions.ts).
  indexDecisions(q, table)
  const c = q.get<{ n: number; deferred: number | null; spot: number | null }>(
    'SELECT decision_count AS n, deferred_count AS deferred, spot_count AS spot FROM fits WHERE id = ?',
    fitId
  ) as { n: number; deferred: number | null; spot: number | null }
  const deferred = c.deferred ?? 0
  const spot = c.spot ?? 0
  q.run('UPDATE fits SET decided_at = ?, deferred_count = ?, spot_count = ? WHERE id = ?', now, deferred, spot, fitId)
  appendAudit(q, now, actor, 'decisions.save', fitId, { count: c.n, acted: c.n - deferred, deferred, spotCheck: spot })
  return { fitId, count: c.n, decidedAt: now }
}

function undecidedFit(q: Sql, fitId: string): FitRecord {
  checkId(fitId, 'fitId')
  const fit = getFit(q, fitId)
  if (fit === null) throw new StoreError('not_found', `no fit ${fitId}`, { fitId })
  if (fit.decidedAt !== null) {
    throw new StoreError('conflict', `fit ${fitId} already has its decisions (saved ${fit.decidedAt})`, { fitId })
  }
  return fit
}

