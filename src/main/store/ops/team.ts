/**
 * Team mode's reads, written once for both backends as plans (../plan.ts) over
 * the shared label rules (label-rules.ts): effective labels, Calibrate's draw with N reviewers per
 * task, the tasks awaiting adjudication, the sealed rule, and the reviewers' votes.
 */
import { decisionsTable } from '../fit-decisions'
import {
  AWAITS_ADJUDICATION,
  drawablePredicate,
  EFFECTIVE_LABEL_ID,
  IS_SEALED,
  IS_VOTE,
  LIVE_LABEL,
  OPEN_DRAW,
  SEALED_FOR,
  type LabelDialect,
  type SqlPart
} from '../label-rules'
import { rowsOf, type Plan } from '../plan'
import type { Dialect } from './dialect'
import { latestDecidedFitId } from './fits'
import { LABEL_COLUMNS, parseStringArray, toLabel, type LabelRow } from '../rows'
import type { DrawResult } from '../../../shared/contract/calibrate'
import { StoreError, type DrawInput, type EffectiveLabel, type LabelSource } from '../contract'
import type { AdjudicationPage, AdjudicationQuery, OpenDrawsQuery, SealedQuery, Vote } from '../contract'
import { checkId, checkInt } from '../validate'

const PUBLISHED_TASKS = `tasks t JOIN imports i ON i.id = t.import_id AND i.state = 'published'`

/** At most this many ids in one list argument (a queue page, a recent-labels list). */
const MAX_IDS = 10_000

function checkIds(ids: unknown, what: string): string[] {
  if (!Array.isArray(ids)) throw new StoreError('bad_input', `${what} must be an array`)
  if (ids.length > MAX_IDS) throw new StoreError('bad_input', `${what} holds more than ${MAX_IDS} ids`)
  ids.forEach((id) => checkId(id, `${what}[]`))
  return ids as string[]
}

type EffectiveRow = { id: string; task_id: string; label: string; source: LabelSource; reviewer: string; at: string }

/**
 * A task still sealed with N reviewers per task is left out of what the labels teach: its blind
 * labels are owed by reviewers still blind on it, and a fit, an audit or an agreement figure that
 * moved on one of them would tell those reviewers what it said. No condition (and no parameter) with N = 1.
 */
function owedLeftOut(taskExpr: string, reviewersPerTask: unknown): SqlPart {
  const perTask = reviewersPerTask === undefined ? 1 : checkInt(reviewersPerTask, 'reviewersPerTask', 1)
  return perTask === 1 ? { sql: '', params: [] } : { sql: ` AND NOT (${IS_SEALED(taskExpr)})`, params: [perTask] }
}

/** Every task's effective label, in task-id order (with N > 1, none for a task still sealed: owedLeftOut). */
export function* effectiveLabelsPlan(d: LabelDialect, reviewersPerTask?: number): Plan<EffectiveLabel[]> {
  const owed = owedLeftOut('l.task_id', reviewersPerTask)
  const rows = yield* rowsOf<EffectiveRow>(
    `SELECT l.id, l.task_id, l.label, l.source, l.reviewer, l.at FROM labels l
     WHERE ${LIVE_LABEL('l')} AND l.id = ${EFFECTIVE_LABEL_ID('l.task_id', d)}${owed.sql} ORDER BY l.task_id`,
    ...owed.params
  )
  return rows.map((r) => ({ taskId: r.task_id, labelId: r.id, label: r.label, source: r.source, reviewer: r.reviewer, at: r.at }))
}

/**
 * Calibrate's draw (docs/engine.md §10): uniformly among the drawable published tasks (or, with
 * `spotCheckOnly`, the current fit's spot-checked ones among them), minus `exclude`; the caller's
 * random number `at` ∈ [0, 1) picks one, so the draw is uniform and this code deterministic.
 */
export function* drawPlan(input: DrawInput, fitId: string | null, d: LabelDialect): Plan<DrawResult> {
  if (!(typeof input.at === 'number' && input.at >= 0 && input.at < 1)) throw new StoreError('bad_input', 'at must be a number in [0, 1)')
  const exclude = checkIds(input.exclude, 'exclude')
  const perTask = input.reviewersPerTask === undefined ? 1 : checkInt(input.reviewersPerTask, 'reviewersPerTask', 1)
  const reviewer = input.reviewer === undefined || input.reviewer === null ? null : checkId(input.reviewer, 'reviewer')
  const spot = input.spotCheckOnly === true
  const drawable = drawablePredicate('t.id', perTask, reviewer)
  const from = `${PUBLISHED_TASKS}
    ${spot ? `JOIN ${decisionsTable(fitId)} d ON d.task_id = t.id AND d.spot_check` : ''}
    WHERE ${drawable.sql} AND t.id NOT IN ${d.idSet}`
  const params = [...drawable.params, d.idParam(exclude)]
  const [{ n }] = yield* rowsOf<{ n: number }>(`SELECT count(*) AS n FROM ${from}`, ...params)
  // Tasks, not labels: with N reviewers per task one task of the calibration set has N labels.
  const [{ n: randomLabels }] = yield* rowsOf<{ n: number }>(`SELECT count(DISTINCT l.task_id) AS n FROM labels l WHERE l.source = 'random' AND ${LIVE_LABEL('l')}`)
  if (n === 0) return { taskId: null, unlabeled: 0, randomLabels }
  const pick = Math.min(n - 1, Math.floor(input.at * n))
  const [row] = yield* rowsOf<{ id: string }>(`SELECT t.id FROM ${from} ORDER BY t.id LIMIT 1 OFFSET ?`, ...params, pick)
  return { taskId: row?.id ?? null, unlabeled: n, randomLabels }
}

type AwaitingRow = { id: string; question: string | null; grp: string | null; candidates: string; version: number }

/** The tasks awaiting adjudication (label-rules.ts), a page in task-id order, each with its live labels. */
export function* awaitingAdjudicationPlan(query: AdjudicationQuery, d: LabelDialect): Plan<AdjudicationPage> {
  const perTask = checkInt(query.reviewersPerTask, 'reviewersPerTask', 1)
  const offset = checkInt(query.offset, 'offset')
  const limit = Math.min(checkInt(query.limit, 'limit', 1), 500)
  const taskId = query.taskId === null || query.taskId === undefined ? null : checkId(query.taskId, 'taskId')
  // Votes can only disagree on a task two reviewers labeled: the labels drive the walk, not the tasks.
  const from = `${PUBLISHED_TASKS}
    WHERE t.id IN (SELECT x.task_id FROM labels x WHERE ${LIVE_LABEL('x')} GROUP BY x.task_id HAVING count(DISTINCT x.reviewer) >= 2)
    AND ${AWAITS_ADJUDICATION('t.id', d)}${taskId === null ? '' : ' AND t.id = ?'}`
  const params = [perTask, ...(taskId === null ? [] : [taskId])]
  const [{ n: total }] = yield* rowsOf<{ n: number }>(`SELECT count(*) AS n FROM ${from}`, ...params)
  const tasks = yield* rowsOf<AwaitingRow>(
    `SELECT t.id, t.question, t.grp, t.candidates, t.version FROM ${from} ORDER BY t.id LIMIT ? OFFSET ?`, ...params, limit, offset
  )
  const labels = tasks.length === 0 ? [] : (yield* rowsOf<LabelRow>(
    `SELECT ${LABEL_COLUMNS} FROM labels WHERE task_id IN ${d.idSet} AND ${LIVE_LABEL('labels')} ORDER BY ${d.seq}`,
    d.idParam(tasks.map((t) => t.id))
  )).map(toLabel)
  return {
    total,
    rows: tasks.map((t) => ({
      taskId: t.id, question: t.question, group: t.grp, candidates: parseStringArray(t.candidates), version: t.version,
      labels: labels.filter((l) => l.taskId === t.id)
    }))
  }
}

/** Which of these tasks are sealed for the reviewer (TeamStore.sealedTasks), in the order given. */
export function* sealedTasksPlan(query: SealedQuery, d: LabelDialect): Plan<string[]> {
  const ids = checkIds(query.taskIds, 'taskIds')
  const reviewer = checkId(query.reviewer, 'reviewer')
  const perTask = checkInt(query.reviewersPerTask, 'reviewersPerTask', 1)
  if (perTask === 1 || ids.length === 0) return []
  const rows = yield* rowsOf<{ id: string }>(
    `SELECT t.id FROM tasks t WHERE t.id IN ${d.idSet} AND ${SEALED_FOR('t.id')}`,
    d.idParam(ids), reviewer, perTask
  )
  const sealed = new Set(rows.map((r) => r.id))
  return ids.filter((id) => sealed.has(id))
}

/** Which of these tasks Calibrate drew for the reviewer and they have not labeled since (TeamStore.openDraws), in the order given. */
export function* openDrawsPlan(query: OpenDrawsQuery, d: LabelDialect): Plan<string[]> {
  const ids = checkIds(query.taskIds, 'taskIds')
  const reviewer = checkId(query.reviewer, 'reviewer')
  if (ids.length === 0) return []
  const rows = yield* rowsOf<{ id: string }>(`SELECT t.id FROM tasks t WHERE t.id IN ${d.idSet} AND ${OPEN_DRAW('t.id')}`, d.idParam(ids), reviewer)
  const open = new Set(rows.map((r) => r.id))
  return ids.filter((id) => open.has(id))
}

/** Every vote on the tasks two or more reviewers labeled (agreement is measured on these; owedLeftOut). */
export function* votesPlan(d: LabelDialect, reviewersPerTask?: number): Plan<Vote[]> {
  const owed = owedLeftOut('l.task_id', reviewersPerTask)
  const rows = yield* rowsOf<{ task_id: string; reviewer: string; label: string }>(
    `SELECT l.task_id, l.reviewer, l.label FROM labels l
     WHERE ${LIVE_LABEL('l')} AND NOT l.adjudicated AND ${IS_VOTE('l', d)} AND l.task_id IN (
       SELECT x.task_id FROM labels x WHERE ${LIVE_LABEL('x')} AND NOT x.adjudicated GROUP BY x.task_id HAVING count(DISTINCT x.reviewer) >= 2)${owed.sql}`,
    ...owed.params
  )
  // Sorted here, not by the server's collation, so both backends return the same order.
  const votes = rows.map((r) => ({ taskId: r.task_id, reviewer: r.reviewer, label: r.label }))
  return votes.sort((a, b) => cmp(a.taskId, b.taskId) || cmp(a.reviewer, b.reviewer))
}

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

/** Calibrate's draw under the current fit (drawPlan). */
export function* drawUnlabeledPlan(input: DrawInput, d: Dialect): Plan<DrawResult> {
  return yield* drawPlan(input, yield* latestDecidedFitId(d), d)
}
