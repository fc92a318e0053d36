/**
 * Fits and their decisions. A fit is written once; its decisions are written once — all together,
 * or in pages — into the fit's own table (../fit-decisions.ts), and finishing indexes that table
 * and sets `decided_at`, so a reader never sees a half-decided fit as the current one.
 */
import { randomUUID } from 'node:crypto'
import { availableParallelism } from 'node:os'
import { checkDecisionRows, twice } from '../decision-check'
import {
  StoreError,
  type Actor,
  type DecisionInput,
  type FitInput,
  type FitRecord,
  type SaveDecisionsResult
} from '../types'
import { checkId, checkJsonObject } from '../validate'
import { appendAudit } from './audit'
import type { Sql } from './connection'
import { FIT_COLUMNS, parseStringArray, toFit, type FitRow } from '../rows'
import { decisionsTable, type DecidedFit } from '../fit-decisions'
import { DECISION_INDEXES, DECISIONS_TABLE } from './migrations/0004-decisions-per-fit'

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
  if (parent !== null && getFit(q, parent) === null) {
    throw new StoreError('not_found', `no fit ${parent} (parentFitId)`, { fitId: parent })
  }
  const id = randomUUID()
  q.run(
    `INSERT INTO fits (id, created_at, method, hyperparameters, reliabilities, certificate, metrics, parent_fit_id)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    id, now, method, JSON.stringify(hyper), JSON.stringify(rel),
    cert === null ? null : JSON.stringify(cert), metrics === null ? null : JSON.stringify(metrics), parent
  )
  appendAudit(q, now, actor, 'fit.save', id, { method, parentFitId: parent })
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

/**
 * One page of an undecided fit's decisions, in one transaction. The rows stay out of sight until
 * `finishDecisions` sets the fit's `decided_at` (every reader goes through the current, decided
 * fit), so a decide over a million tasks streams its rows in pages, in bounded memory, and a kill
 * leaves at worst an undecided fit with some rows no one sees. The fit's counts grow with each
 * page in the same transaction, so they always equal its rows. The table has no index yet: rows
 * go in as appends to its key, and the queue orders are sorted once, at the finish.
 */
export function appendDecisions(q: Sql, fitId: string, rows: DecisionInput[]): number {
  undecidedFit(q, fitId)
  const { acted, spot } = checkDecisionRows(rows)
  const table = tableOf(q, fitId)
  // Prepared once per page: the statement cache keys on the SQL text, a lookup per call.
  const task = q.stmt(
    `SELECT t.candidates, t.created_at, t.grp FROM tasks t CROSS JOIN imports i ON i.id = t.import_id AND i.state = 'published' WHERE t.id = ?`
  )
  const insert = q.stmt(
    `INSERT INTO ${table} (task_id, decision, spot_check, answer, posterior, stop_round, gap, bound, disagreement,
       task_created_at, task_group, ks, why, reason) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
  )
  // A council's tasks share a handful of candidate lists: each list's text is parsed once.
  const candidates = new Map<string, string[]>()
  for (const d of rows) {
    const t = task.get(d.taskId) as { candidates: string; created_at: string; grp: string | null } | undefined
    if (t === undefined) throw new StoreError('not_found', `no task ${d.taskId}`, { taskId: d.taskId, fitId })
    if (d.answer !== null) {
      let list = candidates.get(t.candidates)
      if (list === undefined) candidates.set(t.candidates, (list = parseStringArray(t.candidates)))
      if (!list.includes(d.answer)) {
        throw new StoreError('bad_input', `answer "${d.answer}" is not a candidate of task ${d.taskId}`, { taskId: d.taskId, fitId, candidates: list })
      }
    }
    try {
      // The task's immutable created_at and group are copied, so each queue order is one index.
      insert.run(
        d.taskId, d.decision, d.spotCheck ? 1 : 0, d.answer, JSON.stringify(d.posterior), d.stopRound, d.gap,
        d.bound === null ? null : JSON.stringify(d.bound), d.disagreement, t.created_at, t.grp,
        d.k === null || d.k === undefined ? null : JSON.stringify(d.k),
        d.why === null || d.why === undefined ? null : JSON.stringify(d.why), d.reason ?? null
      )
    } catch (e) {
      if ((e as { code?: string }).code === 'SQLITE_CONSTRAINT_PRIMARYKEY') throw twice(d.taskId)
      throw e
    }
  }
  q.run(
    `UPDATE fits SET decision_count = decision_count + ?, deferred_count = coalesce(deferred_count, 0) + ?,
       spot_count = coalesce(spot_count, 0) + ? WHERE id = ?`,
    rows.length, rows.length - acted, spot, fitId
  )
  return rows.length
}

/** Builds a filled decisions table's queue indexes, the sorts helped by other cores (12% here on 2). */
export function indexDecisions(q: Sql, table: string): void {
  q.db.pragma(`threads = ${Math.min(4, Math.max(0, availableParallelism() - 1))}`)
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

/** All decisions of a fit at once: a page and the finish in one transaction. */
export function saveDecisions(q: Sql, now: string, fitId: string, rows: DecisionInput[], actor: Actor): SaveDecisionsResult {
  appendDecisions(q, fitId, rows)
  return finishDecisions(q, now, fitId, actor)
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

