/**
 * A page of a fit's decisions, PostgreSQL's bulk write: a statement per chunk of rows, each column
 * an array parameter. The rest of a fit's life is written once for both backends (../ops/fits.ts);
 * the fit row is locked while a page is written: two clients writing one fit's decisions queue up,
 * and the second finds it decided (`conflict`).
 */
import { StoreError, type DecisionInput, type DecisionPage } from '../contract'
import { badPosterior, checkDecisionRows, twice } from '../decision-check'
import { checkDecisionPage, rowsOfPage } from '../decision-page'
import { decisionsTableOf, undecidedFit } from '../ops/fits'
import { parseStringArray } from '../rows'
import type { PgSql } from './connection'
import { POSTGRES } from './dialect'
import { runPlan } from './plan-driver'

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
  await runPlan(q, undecidedFit(POSTGRES, fitId))
  const { acted, spot } = checkDecisionRows(rows)
  const table = await runPlan(q, decisionsTableOf(POSTGRES, fitId))
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
