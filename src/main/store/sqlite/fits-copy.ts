/**
 * A re-decide under another budget, on SQLite: the parent fit's rows copied into the new fit's
 * table with their verdict recomputed in SQL (issue #21: at a million tasks, refitting and deciding
 * every task again took 15–16 s where the copy takes about half of it). Only the verdict depends on the
 * budget (ENGINE.md §8.8), and a row keeps what it needs (migration 9): per round, L_t as a key that
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
import type { DecisionCopy } from '../contract'
import { checkCopy } from '../decision-copy'
import { DECISION_COLUMNS, decisionsTable } from '../fit-decisions'
import { countPage, decisionsTableOf, undecidedFit } from '../ops/fits'
import { numberKey } from '../round-keys'
import type { Sql } from './connection'
import { SQLITE } from './dialect'
import { runPlan } from './plan-driver'

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

export function copyDecisions(q: Sql, fitId: string, copy: DecisionCopy): { copied: number; last: string | null } {
  checkCopy(fitId, copy)
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
