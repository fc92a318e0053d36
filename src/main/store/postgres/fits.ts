/**
 * Fits and their decisions. A fit is written once; its decisions are written once — all together,
 * or in pages — into the fit's own table (../fit-decisions.ts), and finishing indexes that table
 * and sets `decided_at`, so a reader never sees a half-decided fit as the current one. The fit
 * row is locked FOR UPDATE while its decisions are saved: two clients saving decisions for one fit
 * queue up, and the second finds it decided (`conflict`).
 */
import { randomUUID } from 'node:crypto'
import { badPosterior, checkDecisionRows, twice } from '../decision-check'
import { checkDecisionPage, rowsOfPage } from '../decision-page'
import type { DecisionPage } from '../contract'
import {
  StoreError,
  type Actor,
  type DecisionInput,
  type FitInput,
  type FitRecord,
  type SaveDecisionsResult
} from '../contract'
import { checkBound, checkId, checkJsonObject } from '../validate'
import { appendAudit } from './audit'
import type { PgSql } from './connection'
import { FIT_COLUMNS, parseStringArray, toFit, type FitRow } from '../rows'
import { decisionsTable, type DecidedFit } from '../fit-decisions'
import { DECISION_INDEXES, DECISIONS_TABLE } from './migrations/0002-decisions-per-fit'

export async function getFit(q: PgSql, id: string, lock = false): Promise<FitRecord | null> {
  const row = await q.get<FitRow>(`SELECT ${FIT_COLUMNS} FROM fits WHERE id = ?${lock ? ' FOR UPDATE' : ''}`, id)
  return row === undefined ? null : toFit(row)
}

export async function saveFit(q: PgSql, now: string, input: FitInput, actor: Actor): Promise<FitRecord> {
  const method = checkId(input.method, 'method')
  const hyper = checkJsonObject(input.hyperparameters, 'hyperparameters')
  const rel = checkJsonObject(input.reliabilities, 'reliabilities')
  const cert = input.certificate === null ? null : checkJsonObject(input.certificate, 'certificate')
  const metrics = input.metrics === null ? null : checkJsonObject(input.metrics, 'metrics')
  const parent = input.parentFitId === null ? null : checkId(input.parentFitId, 'parentFitId')
  const bound = checkBound(input.bound)
  if (parent !== null && (await getFit(q, parent)) === null) {
    throw new StoreError('not_found', `no fit ${parent} (parentFitId)`, { fitId: parent })
  }
  const id = randomUUID()
  await q.run(
    `INSERT INTO fits (id, created_at, method, hyperparameters, reliabilities, certificate, metrics, parent_fit_id, bound)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    id, now, method, JSON.stringify(hyper), JSON.stringify(rel),
    cert === null ? null : JSON.stringify(cert), metrics === null ? null : JSON.stringify(metrics), parent, bound
  )
  await appendAudit(q, now, actor, 'fit.save', id, bound === null ? { method, parentFitId: parent } : { method, parentFitId: parent, bound })
  const fit = await getFit(q, id)
  if (fit === null) throw new StoreError('internal', `fit ${id} vanished after insert`)
  return fit
}

/** Newest first; `created_at` ties (same millisecond) fall back to insertion order. */
export async function latestFit(q: PgSql): Promise<FitRecord | null> {
  const row = await q.get<FitRow>(`SELECT ${FIT_COLUMNS} FROM fits ORDER BY created_at DESC, seq DESC LIMIT 1`)
  return row === undefined ? null : toFit(row)
}

/** The fit whose decisions the console shows: the newest one that has them. */
export async function latestDecidedFit(q: PgSql): Promise<DecidedFit | null> {
  const row = await q.get<{ id: string; decided_at: string; method: string }>(
    'SELECT id, decided_at, method FROM fits WHERE decided_at IS NOT NULL ORDER BY created_at DESC, seq DESC LIMIT 1'
  )
  return row === undefined ? null : { id: row.id, decidedAt: row.decided_at, method: row.method }
}

export async function latestDecidedFitId(q: PgSql): Promise<string | null> {
  return (await latestDecidedFit(q))?.id ?? null
}

/** Why a decision row was not inserted: its task is not visible, its answer or its posterior's keys are not its candidates. */
async function refuseDecision(q: PgSql, fitId: string, d: DecisionInput): Promise<never> {
  const t = await q.get<{ candidates: string }>(
    `SELECT t.candidates FROM tasks t JOIN imports i ON i.id = t.import_id WHERE t.id = ? AND i.state = 'published'`,
    d.taskId
  )
  if (t === undefined) throw new StoreError('not_found', `no task ${d.taskId}`, { taskId: d.taskId, fitId })
  const candidates = parseStringArray(t.candidates)
  if (d.answer === null || candidates.includes(d.answer)) throw badPosterior(d.taskId, candidates, Object.keys(d.posterior), fitId)
  throw new StoreError('bad_input', `answer "${String(d.answer)}" is not a candidate of task ${d.taskId}`, { taskId: d.taskId, fitId, candidates: parseStringArray(t.candidates) })
}

/** Rows per INSERT: each statement takes the chunk as arrays (one round trip, not one per row). */
const CHUNK = 2000

const json = (v: unknown): string | null => (v === null || v === undefined ? null : JSON.stringify(v))

/**
 * One statement per chunk: the task's immutable created_at and group are copied from its row, and
 * a missing task, an answer that is not its candidate or a posterior whose keys are not exactly
 * its candidates (as SQLite, which stores the posterior in candidate order) inserts nothing
 * (diagnosed below).
 */
async function insertChunk(q: PgSql, table: string, fitId: string, rows: DecisionInput[]): Promise<void> {
  const inserted = await q.run(
    `INSERT INTO ${table} (task_id, decision, spot_check, answer, posterior, stop_round, gap, bound,
       disagreement, task_created_at, task_group, ks, why, reason)
     SELECT t.id, u.decision, u.spot, u.answer, u.posterior::json, u.stop_round, u.gap, u.bound::json, u.disagreement,
       t.created_at, t.grp, u.ks::json, u.why::json, u.reason
     FROM unnest(?::text[], ?::text[], ?::boolean[], ?::text[], ?::text[], ?::integer[], ?::float8[], ?::text[], ?::float8[], ?::text[], ?::text[], ?::text[])
       AS u(task, decision, spot, answer, posterior, stop_round, gap, bound, disagreement, ks, why, reason)
     JOIN tasks t ON t.id = u.task JOIN imports i ON i.id = t.import_id AND i.state = 'published'
     WHERE (u.answer IS NULL OR EXISTS (SELECT 1 FROM json_array_elements_text(t.candidates) c WHERE c = u.answer))
       AND (SELECT count(*) FROM json_object_keys(u.posterior::json)) = json_array_length(t.candidates)
       AND NOT EXISTS (SELECT 1 FROM json_object_keys(u.posterior::json) AS k(key)
         WHERE k.key NOT IN (SELECT json_array_elements_text(t.candidates)))
     ORDER BY t.id`,
    rows.map((d) => d.taskId), rows.map((d) => d.decision), rows.map((d) => d.spotCheck), rows.map((d) => d.answer),
    rows.map((d) => JSON.stringify(d.posterior)), rows.map((d) => d.stopRound), rows.map((d) => d.gap), rows.map((d) => json(d.bound)),
    rows.map((d) => d.disagreement), rows.map((d) => json(d.k)), rows.map((d) => json(d.why)), rows.map((d) => d.reason ?? null)
  )
  if (inserted === rows.length) return
  const missing = await q.get<{ n: number }>(
    `SELECT u.n FROM unnest(?::text[]) WITH ORDINALITY AS u(task, n)
     WHERE NOT EXISTS (SELECT 1 FROM ${table} d WHERE d.task_id = u.task) ORDER BY u.n LIMIT 1`,
    rows.map((d) => d.taskId)
  )
  await refuseDecision(q, fitId, rows[(missing?.n ?? 1) - 1])
}

/** The fit's table, created empty on its first page (the fit row is locked, so once). */
async function tableOf(q: PgSql, fitId: string): Promise<string> {
  const name = decisionsTable(fitId)
  if ((await q.get('SELECT 1 AS one FROM pg_tables WHERE schemaname = current_schema() AND tablename = ?', name)) === undefined) {
    await q.exec(DECISIONS_TABLE(name))
  }
  return name
}

/** A page in columns (../decision-page.ts), checked as one, written as its rows. */
export async function appendDecisionPage(q: PgSql, fitId: string, page: DecisionPage): Promise<number> {
  checkDecisionPage(page)
  return appendRows(q, fitId, rowsOfPage(page))
}

/**
 * One page of an undecided fit's decisions (sqlite/fits.ts `appendDecisionPage` says why pages and
 * why no index yet): the fit row locked, the rows inserted, the fit's running counts raised, in
 * one transaction.
 */
async function appendRows(q: PgSql, fitId: string, rows: DecisionInput[]): Promise<number> {
  await undecidedFit(q, fitId)
  const { acted, spot } = checkDecisionRows(rows)
  const table = await tableOf(q, fitId)
  for (let i = 0; i < rows.length; i += CHUNK) {
    const chunk = rows.slice(i, i + CHUNK)
    const again = await q.get<{ task_id: string }>(`SELECT task_id FROM ${table} WHERE task_id = ANY(?::text[]) LIMIT 1`, chunk.map((d) => d.taskId))
    if (again !== undefined) throw twice(again.task_id)
    await insertChunk(q, table, fitId, chunk)
  }
  await q.run(
    `UPDATE fits SET decision_count = decision_count + ?, deferred_count = coalesce(deferred_count, 0) + ?,
       spot_count = coalesce(spot_count, 0) + ? WHERE id = ?`,
    rows.length, rows.length - acted, spot, fitId
  )
  return rows.length
}

/** Indexes the fit's table and makes its decisions (every page appended) the current ones, once. */
export async function finishDecisions(q: PgSql, now: string, fitId: string, actor: Actor): Promise<SaveDecisionsResult> {
  await undecidedFit(q, fitId)
  const table = await tableOf(q, fitId)
  await q.exec(DECISION_INDEXES(table))
  // The planner's row counts for the new table: without them its first queue reads guess.
  await q.exec(`ANALYZE ${table}`)
  const c = (await q.get<{ n: number; deferred: number | null; spot: number | null }>(
    'SELECT decision_count AS n, deferred_count AS deferred, spot_count AS spot FROM fits WHERE id = ?',
    fitId
  )) as { n: number; deferred: number | null; spot: number | null }
  const deferred = c.deferred ?? 0
  const spot = c.spot ?? 0
  await q.run('UPDATE fits SET decided_at = ?, deferred_count = ?, spot_count = ? WHERE id = ?', now, deferred, spot, fitId)
  await appendAudit(q, now, actor, 'decisions.save', fitId, { count: c.n, acted: c.n - deferred, deferred, spotCheck: spot })
  return { fitId, count: c.n, decidedAt: now }
}

/** The fit, locked FOR UPDATE: two clients writing one fit's decisions queue up. */
async function undecidedFit(q: PgSql, fitId: string): Promise<FitRecord> {
  checkId(fitId, 'fitId')
  const fit = await getFit(q, fitId, true)
  if (fit === null) throw new StoreError('not_found', `no fit ${fitId}`, { fitId })
  if (fit.decidedAt !== null) {
    throw new StoreError('conflict', `fit ${fitId} already has its decisions (saved ${fit.decidedAt})`, { fitId })
  }
  return fit
}
