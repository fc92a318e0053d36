/**
 * Fits and their decisions. A fit is written once; its decisions are written once, all together,
 * which sets `decided_at` — so a reader never sees a half-decided fit as the current one. The fit
 * row is locked FOR UPDATE while its decisions are saved: two clients saving decisions for one fit
 * queue up, and the second finds it decided (`conflict`).
 */
import { randomUUID } from 'node:crypto'
import { checkDecision } from '../decision-check'
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
import type { PgSql } from './connection'
import { FIT_COLUMNS, parseStringArray, toFit, type FitRow } from '../rows'

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
  if (parent !== null && (await getFit(q, parent)) === null) {
    throw new StoreError('not_found', `no fit ${parent} (parentFitId)`, { fitId: parent })
  }
  const id = randomUUID()
  await q.run(
    `INSERT INTO fits (id, created_at, method, hyperparameters, reliabilities, certificate, metrics, parent_fit_id)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    id, now, method, JSON.stringify(hyper), JSON.stringify(rel),
    cert === null ? null : JSON.stringify(cert), metrics === null ? null : JSON.stringify(metrics), parent
  )
  await appendAudit(q, now, actor, 'fit.save', id, { method, parentFitId: parent })
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
export async function latestDecidedFitId(q: PgSql): Promise<string | null> {
  const row = await q.get<{ id: string }>('SELECT id FROM fits WHERE decided_at IS NOT NULL ORDER BY created_at DESC, seq DESC LIMIT 1')
  return row === undefined ? null : row.id
}

/** Why a decision row was not inserted: its task is not visible, or its answer is not a candidate. */
async function refuseDecision(q: PgSql, fitId: string, d: DecisionInput): Promise<never> {
  const t = await q.get<{ candidates: string }>(
    `SELECT t.candidates FROM tasks t JOIN imports i ON i.id = t.import_id WHERE t.id = ? AND i.state = 'published'`,
    d.taskId
  )
  if (t === undefined) throw new StoreError('not_found', `no task ${d.taskId}`, { taskId: d.taskId, fitId })
  throw new StoreError('bad_input', `answer "${String(d.answer)}" is not a candidate of task ${d.taskId}`, { taskId: d.taskId, fitId, candidates: parseStringArray(t.candidates) })
}

/** Rows per INSERT: each statement takes the chunk as arrays (one round trip, not one per row). */
const CHUNK = 2000

const json = (v: unknown): string | null => (v === null || v === undefined ? null : JSON.stringify(v))

/**
 * One statement per chunk: the task's immutable created_at and group are copied from its row, and
 * a missing task or an answer that is not its candidate inserts nothing (diagnosed below).
 */
async function insertChunk(q: PgSql, now: string, fitId: string, rows: DecisionInput[]): Promise<void> {
  const inserted = await q.run(
    `INSERT INTO decisions (fit_id, task_id, decision, spot_check, answer, posterior, stop_round, gap, bound,
       disagreement, decided_at, task_created_at, task_group, ks, why, reason)
     SELECT ?::text, t.id, u.decision, u.spot, u.answer, u.posterior::json, u.stop_round, u.gap, u.bound::json, u.disagreement, ?::text,
       t.created_at, t.grp, u.ks::json, u.why::json, u.reason
     FROM unnest(?::text[], ?::text[], ?::boolean[], ?::text[], ?::text[], ?::integer[], ?::float8[], ?::text[], ?::float8[], ?::text[], ?::text[], ?::text[])
       AS u(task, decision, spot, answer, posterior, stop_round, gap, bound, disagreement, ks, why, reason)
     JOIN tasks t ON t.id = u.task JOIN imports i ON i.id = t.import_id AND i.state = 'published'
     WHERE u.answer IS NULL OR EXISTS (SELECT 1 FROM json_array_elements_text(t.candidates) c WHERE c = u.answer)`,
    fitId, now,
    rows.map((d) => d.taskId), rows.map((d) => d.decision), rows.map((d) => d.spotCheck), rows.map((d) => d.answer),
    rows.map((d) => JSON.stringify(d.posterior)), rows.map((d) => d.stopRound), rows.map((d) => d.gap), rows.map((d) => json(d.bound)),
    rows.map((d) => d.disagreement), rows.map((d) => json(d.k)), rows.map((d) => json(d.why)), rows.map((d) => d.reason ?? null)
  )
  if (inserted === rows.length) return
  const missing = await q.get<{ n: number }>(
    `SELECT u.n FROM unnest(?::text[]) WITH ORDINALITY AS u(task, n)
     WHERE NOT EXISTS (SELECT 1 FROM decisions d WHERE d.fit_id = ? AND d.task_id = u.task) ORDER BY u.n LIMIT 1`,
    rows.map((d) => d.taskId), fitId
  )
  await refuseDecision(q, fitId, rows[(missing?.n ?? 1) - 1])
}

export async function saveDecisions(
  q: PgSql,
  now: string,
  fitId: string,
  rows: DecisionInput[],
  actor: Actor
): Promise<SaveDecisionsResult> {
  checkId(fitId, 'fitId')
  if (!Array.isArray(rows)) throw new StoreError('bad_input', 'rows must be an array')
  const fit = await getFit(q, fitId, true)
  if (fit === null) throw new StoreError('not_found', `no fit ${fitId}`, { fitId })
  if (fit.decidedAt !== null) {
    throw new StoreError('conflict', `fit ${fitId} already has its decisions (saved ${fit.decidedAt})`, { fitId })
  }
  rows.forEach(checkDecision)
  const seen = new Set<string>()
  let acted = 0
  let spot = 0
  for (const d of rows) {
    if (seen.has(d.taskId)) throw new StoreError('bad_input', `task ${d.taskId} appears twice in the decisions`)
    seen.add(d.taskId)
    if (d.decision === 'act') acted++
    if (d.spotCheck) spot++
  }
  for (let i = 0; i < rows.length; i += CHUNK) await insertChunk(q, now, fitId, rows.slice(i, i + CHUNK))
  await q.run('UPDATE fits SET decided_at = ?, decision_count = ?, deferred_count = ?, spot_count = ? WHERE id = ?', now, rows.length, rows.length - acted, spot, fitId)
  await appendAudit(q, now, actor, 'decisions.save', fitId, {
    count: rows.length,
    acted,
    deferred: rows.length - acted,
    spotCheck: spot
  })
  return { fitId, count: rows.length, decidedAt: now }
}
