/**
 * Fits: saved once, read back, listed, and rolled back. Fits and decisions are immutable, so a
 * rollback does not move a pointer: it appends a new fit that copies the chosen one's content and
 * decisions (parent = the chosen fit), which then is the newest decided fit — the one every count
 * and queue reads. The history stays linear and audited. A fit's decisions are written once, in
 * pages, into the fit's own table (../fit-decisions.ts) — a bulk write each backend does its own way
 * (sqlite/fits.ts, postgres/fits.ts) — and finishing indexes that table and sets `decided_at`, so
 * a reader never sees a half-decided fit as the current one.
 */
import { randomUUID } from 'node:crypto'
import { StoreError, type Actor, type FitInput, type FitRecord, type FitStopRounds, type ListedFit, type SaveDecisionsResult } from '../contract'
import { decisionsTable, type DecidedFit } from '../fit-decisions'
import { exec, rowOf, rowsOf, run, type Plan } from '../plan'
import { FIT_COLUMNS, toFit, type FitRow } from '../rows'
import { checkBound, checkId, checkInt, checkJsonObject } from '../validate'
import { appendAudit } from './audit'
import { keepLabeledCounts } from './decided-counts'
import { copyWhatIfFigures } from './what-if-rows'
import type { Dialect } from './dialect'

/** `lock`: the row locked for the rest of the transaction (a write about this fit). */
export function* getFit(d: Dialect, id: string, lock = false): Plan<FitRecord | null> {
  const row = yield* rowOf<FitRow>(`SELECT ${FIT_COLUMNS} FROM fits WHERE id = ?${lock ? d.forUpdate() : ''}`, id)
  return row === undefined ? null : toFit(row)
}

export function* requireFit(d: Dialect, fitId: string): Plan<FitRecord> {
  checkId(fitId, 'fitId')
  const fit = yield* getFit(d, fitId)
  if (fit === null) throw new StoreError('not_found', `no fit ${fitId}`, { fitId })
  return fit
}

export function* saveFit(d: Dialect, now: string, input: FitInput, actor: Actor): Plan<FitRecord> {
  const method = checkId(input.method, 'method')
  const hyper = checkJsonObject(input.hyperparameters, 'hyperparameters')
  const rel = checkJsonObject(input.reliabilities, 'reliabilities')
  const cert = input.certificate === null ? null : checkJsonObject(input.certificate, 'certificate')
  const metrics = input.metrics === null ? null : checkJsonObject(input.metrics, 'metrics')
  const parent = input.parentFitId === null ? null : checkId(input.parentFitId, 'parentFitId')
  const bound = checkBound(input.bound)
  if (parent !== null && (yield* getFit(d, parent)) === null) {
    throw new StoreError('not_found', `no fit ${parent} (parentFitId)`, { fitId: parent })
  }
  // Made once per plan: a retried transaction writes the fit under a new id, never a clash.
  const id = randomUUID()
  yield* run(
    `INSERT INTO fits (id, created_at, method, hyperparameters, reliabilities, certificate, metrics, parent_fit_id, bound)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    id, now, method, JSON.stringify(hyper), JSON.stringify(rel),
    cert === null ? null : JSON.stringify(cert), metrics === null ? null : JSON.stringify(metrics), parent, bound
  )
  yield* appendAudit(now, actor, 'fit.save', id, bound === null ? { method, parentFitId: parent } : { method, parentFitId: parent, bound })
  const fit = yield* getFit(d, id)
  if (fit === null) throw new StoreError('internal', `fit ${id} vanished after insert`)
  return fit
}

/** Newest first; `created_at` ties (same millisecond) fall back to insertion order. */
export function* latestFit(d: Dialect): Plan<FitRecord | null> {
  const row = yield* rowOf<FitRow>(`SELECT ${FIT_COLUMNS} FROM fits ORDER BY created_at DESC, ${d.seq} DESC LIMIT 1`)
  return row === undefined ? null : toFit(row)
}

/** The fit whose decisions the console shows: the newest one that has them. */
export function* latestDecidedFit(d: Dialect): Plan<DecidedFit | null> {
  const row = yield* rowOf<{ id: string; decided_at: string; method: string }>(
    `SELECT id, decided_at, method FROM fits WHERE decided_at IS NOT NULL ORDER BY created_at DESC, ${d.seq} DESC LIMIT 1`
  )
  return row === undefined ? null : { id: row.id, decidedAt: row.decided_at, method: row.method }
}

export function* latestDecidedFitId(d: Dialect): Plan<string | null> {
  return (yield* latestDecidedFit(d))?.id ?? null
}

/** One pass over the fit's decisions, grouped by verdict (SQL's sum over a stored stop round). */
export function* fitStopRounds(d: Dialect, fitId: string): Plan<FitStopRounds | null> {
  const fit = yield* requireFit(d, fitId)
  if (fit.decidedAt === null) return null
  const rows = yield* rowsOf<{ decision: string; n: number | string; rounds: number | string | null }>(
    `SELECT decision, count(*) AS n, sum(stop_round + 1) AS rounds FROM ${decisionsTable(fitId)} GROUP BY decision`
  )
  const out: FitStopRounds = { decided: 0, acted: 0, actedRounds: 0 }
  for (const r of rows) {
    out.decided += Number(r.n)
    if (r.decision !== 'act') continue
    out.acted += Number(r.n)
    out.actedRounds += Number(r.rounds ?? 0)
  }
  return out
}

export function* listFits(d: Dialect, limit: number): Plan<ListedFit[]> {
  checkInt(limit, 'limit', 1)
  const current = yield* latestDecidedFitId(d)
  const rows = yield* rowsOf<FitRow>(`SELECT ${FIT_COLUMNS} FROM fits ORDER BY created_at DESC, ${d.seq} DESC LIMIT ?`, Math.min(limit, 1000))
  return rows.map((r) => {
    const { certificate: _certificate, ...rest } = toFit(r)
    return { ...rest, current: rest.id === current }
  })
}

export function* currentFit(d: Dialect): Plan<FitRecord | null> {
  const id = yield* latestDecidedFitId(d)
  return id === null ? null : yield* getFit(d, id)
}

export function* rollbackFit(d: Dialect, now: string, fitId: string, actor: Actor): Plan<FitRecord> {
  const old = yield* requireFit(d, fitId)
  if (old.decidedAt === null) {
    throw new StoreError('conflict', `fit ${fitId} has no decisions, so it cannot be made current`, { fitId })
  }
  const current = yield* latestDecidedFitId(d)
  if (current === fitId) throw new StoreError('conflict', `fit ${fitId} is already the current fit`, { fitId })
  const id = randomUUID()
  const metrics = { ...(old.metrics ?? {}), rollbackOf: fitId }
  yield* run(
    `INSERT INTO fits (id, created_at, method, hyperparameters, reliabilities, certificate, metrics, parent_fit_id, bound)
     SELECT ${d.typed('text')}, ${d.typed('text')}, method, hyperparameters, reliabilities, certificate, ${d.typed('json')}, id, bound FROM fits WHERE id = ?`,
    id, now, JSON.stringify(metrics), fitId
  )
  // The copy is a new fit's table, filled in key order and then indexed, like a decide's. An
  // older fit's table may lack columns added since (left null in the copy).
  const table = decisionsTable(id)
  yield* exec(d.decisionsTable(table))
  const columns = (yield* rowsOf<{ name: string }>(d.tableColumns, decisionsTable(fitId))).map((c) => c.name).join(', ')
  const copied = yield* run(`INSERT INTO ${table} (${columns}) SELECT ${columns} FROM ${decisionsTable(fitId)} ORDER BY task_id`)
  yield* exec(d.decisionIndexes(table))
  const stored = yield* rowOf<{ deferred: number | null; spot: number | null }>('SELECT deferred_count AS deferred, spot_count AS spot FROM fits WHERE id = ?', fitId)
  yield* run('UPDATE fits SET decided_at = ?, decision_count = ?, deferred_count = ?, spot_count = ? WHERE id = ?', now, copied, stored?.deferred ?? null, stored?.spot ?? null, id)
  // The same rows, so the same what-if figures (the copy reads its rows if the chosen fit has none).
  yield* copyWhatIfFigures(id, fitId, null)
  yield* appendAudit(now, actor, 'fit.rollback', id, { rollbackOf: fitId, replaced: current, decisions: copied })
  return yield* requireFit(d, id)
}

/**
 * A decided fit whose table keeps each row's rounds (SQLite migration 9, PostgreSQL 7): a re-decide can copy it.
 * A table is written whole by one version: its rows all have their rounds, or (the rollback of a
 * fit decided before, whose columns it copies) none does, so its first row tells.
 */
export function* canRedecideRows(d: Dialect, fitId: string): Plan<boolean> {
  const fit = yield* getFit(d, checkId(fitId, 'fitId'))
  if (fit === null || fit.decidedAt === null) return false
  const table = decisionsTable(fitId)
  const columns = yield* rowsOf<{ name: string }>(d.tableColumns, table)
  if (!['peak', 'round_keys', 'round_answers'].every((c) => columns.some((x) => x.name === c))) return false
  const first = yield* rowOf<{ kept: number }>(`SELECT CASE WHEN round_keys IS NULL OR round_answers IS NULL THEN 0 ELSE 1 END AS kept FROM ${table} ORDER BY task_id LIMIT 1`)
  return first === undefined || first.kept === 1
}

/** A fit whose decisions are still to be written, locked: two clients writing one fit's decisions queue up. */
export function* undecidedFit(d: Dialect, fitId: string): Plan<FitRecord> {
  checkId(fitId, 'fitId')
  const fit = yield* getFit(d, fitId, true)
  if (fit === null) throw new StoreError('not_found', `no fit ${fitId}`, { fitId })
  if (fit.decidedAt !== null) {
    throw new StoreError('conflict', `fit ${fitId} already has its decisions (saved ${fit.decidedAt})`, { fitId })
  }
  return fit
}

/** The fit's table, created empty on its first page (a fit that is never decided has none). */
export function* decisionsTableOf(d: Dialect, fitId: string): Plan<string> {
  const name = decisionsTable(fitId)
  if ((yield* rowOf(d.tableExists, name)) === undefined) yield* exec(d.decisionsTable(name))
  return name
}

/**
 * Builds queue index `index` of an undecided fit's table, in a transaction of its own; returns how
 * many are left after it. In one transaction the four builds hold SQLite's one write lock for as
 * long as all four take, and a reviewer's label waits that long behind a background refit; one at a
 * time, a label waits for one. The finish builds whichever is still missing.
 */
export function* indexDecisions(d: Dialect, fitId: string, index: number): Plan<number> {
  checkInt(index, 'index')
  yield* undecidedFit(d, fitId)
  const list = d.decisionIndexList(yield* decisionsTableOf(d, fitId))
  if (index < list.length) yield* exec(list[index])
  return Math.max(0, list.length - index - 1)
}

/**
 * Indexes the fit's table and makes its decisions (every page appended) the current ones, once: a
 * sort per index over the finished table, several times cheaper than keeping four indexes ordered
 * row by row (../fit-decisions.ts).
 */
export function* finishDecisions(d: Dialect, now: string, fitId: string, actor: Actor): Plan<SaveDecisionsResult> {
  yield* undecidedFit(d, fitId)
  const table = yield* decisionsTableOf(d, fitId)
  yield* exec(d.decisionIndexes(table))
  const c = (yield* rowOf<{ n: number; deferred: number | null; spot: number | null }>(
    'SELECT decision_count AS n, deferred_count AS deferred, spot_count AS spot FROM fits WHERE id = ?',
    fitId
  )) as { n: number; deferred: number | null; spot: number | null }
  const deferred = c.deferred ?? 0
  const spot = c.spot ?? 0
  yield* run('UPDATE fits SET decided_at = ?, deferred_count = ?, spot_count = ? WHERE id = ?', now, deferred, spot, fitId)
  // The fit is the current one from here: its labeled tasks are counted once, now, not on each page.
  yield* keepLabeledCounts(d, fitId)
  yield* appendAudit(now, actor, 'decisions.save', fitId, { count: c.n, acted: c.n - deferred, deferred, spotCheck: spot })
  return { fitId, count: c.n, decidedAt: now }
}

/** A page's rows added to its fit's running counts, in the page's transaction (they always equal its rows). */
export function* countPage(fitId: string, n: number, acted: number, spot: number): Plan<number> {
  yield* run(
    `UPDATE fits SET decision_count = decision_count + ?, deferred_count = coalesce(deferred_count, 0) + ?,
       spot_count = coalesce(spot_count, 0) + ? WHERE id = ?`,
    n, n - acted, spot, fitId
  )
  return n
}
