/**
 * Where a fit's decisions live: each fit has its own table, `decisions_<the fit id's 32 hex
 * digits>`, filled once (in pages, without indexes) and then indexed once, when `finishDecisions`
 * makes the fit current. Why not one table for every fit: a million decision rows written into
 * shared B-trees — the rows, their key and four queue orders, each insert a random descent into
 * a tree that already holds every earlier fit — are several times slower on SQLite than the same
 * rows appended in key order to an empty table and then sorted into each index. Every read goes to the
 * current fit's table, so no read filters by fit and no index carries the fit id.
 *
 * A fit id is a UUID the store generated (saveFit, rollback), so the name is derived, never stored.
 * `decisions_none` is the always-empty table the reads join while no fit is decided.
 */
import { StoreError } from './contract'

export const NO_FIT_DECISIONS = 'decisions_none'

/** A decisions table's columns, in its order (the latest migration's shape): what a page's or a copy's INSERT names. */
export const DECISION_COLUMNS =
  'task_id, decision, spot_check, answer, posterior, stop_round, gap, bound, disagreement, task_created_at, task_group, ks, why, reason, peak, round_keys, round_answers'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** The table holding fit `fitId`'s decisions (NO_FIT_DECISIONS for null). Safe to splice into SQL. */
export function decisionsTable(fitId: string | null): string {
  if (fitId === null) return NO_FIT_DECISIONS
  if (!UUID.test(fitId)) throw new StoreError('internal', `fit id ${JSON.stringify(fitId)} is not a UUID, so it names no decisions table`, { fitId })
  return `decisions_${fitId.replace(/-/g, '').toLowerCase()}`
}

/**
 * A migration's queue-index text (`CREATE INDEX …;` lines) as statements each run may repeat: a
 * decide builds its indexes one transaction at a time (ops/fits.ts `indexDecisions`), and the
 * finish then builds whichever is still missing.
 */
export function indexStatements(indexes: string): string[] {
  return indexes
    .split(';')
    .map((s) => s.trim())
    .filter((s) => s !== '')
    .map((s) => s.replace(/^CREATE INDEX /, 'CREATE INDEX IF NOT EXISTS '))
}

/** The current fit as the rows of its table need it: the table has neither column. */
export type DecidedFit = { id: string; decidedAt: string; method: string }

/**
 * The fits' side of an integrity check: a decided fit whose table is missing, a table whose row
 * count is not its fit's count, a table that belongs to no fit. `rows`: each decisions table
 * present (NO_FIT_DECISIONS included) and its row count.
 */
export function decisionTableProblems(rows: ReadonlyMap<string, number>, fits: readonly { id: string; decided: boolean; count: number }[]): string[] {
  const problems: string[] = []
  const owned = new Set<string>([NO_FIT_DECISIONS])
  if ((rows.get(NO_FIT_DECISIONS) ?? 0) > 0) problems.push(`${NO_FIT_DECISIONS} holds rows; it must stay empty`)
  for (const f of fits) {
    const table = decisionsTable(f.id)
    owned.add(table)
    const n = rows.get(table)
    if (n === undefined) {
      if (f.decided || f.count > 0) problems.push(`fit ${f.id} has ${f.count} decisions but no decisions table ${table}`)
    } else if (n !== f.count) problems.push(`fit ${f.id} counts ${f.count} decisions but its table ${table} holds ${n}`)
  }
  for (const t of rows.keys()) if (!owned.has(t)) problems.push(`decisions table ${t} belongs to no fit`)
  return problems
}
