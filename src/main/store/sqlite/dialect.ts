import type { Dialect } from '../ops/dialect'
import { indexStatements } from '../fit-decisions'
import { DECISION_INDEXES } from './migrations/0004-decisions-per-fit'
import { DECISIONS_TABLE } from './migrations/0005-decision-numbers'

/** Words of the search text, each a quoted FTS5 prefix term (quotes cannot occur inside one). */
export function ftsQuery(text: string): string | null {
  const words = text.match(/[\p{L}\p{N}_]+/gu)?.slice(0, 16) ?? []
  return words.length === 0 ? null : words.map((w) => `"${w}"*`).join(' ')
}

/**
 * Threads that help each sort of a decisions table's index build: the sorter's helpers spend much
 * of their time waiting on memory, so even on 2 cores four of them were faster than one (a million
 * rows' four indexes in 1.5–1.7 s against 1.8–2.2 s).
 */
const SORT_THREADS = 4

/**
 * SQLite's side of the operations written once (../ops/dialect.ts): recording order is the rowid;
 * an id list travels as JSON; a flag is 0/1; no row locks (a write transaction holds the database).
 */
export const SQLITE: Dialect = {
  backend: 'sqlite',
  seq: 'rowid',
  idSet: '(SELECT value FROM json_each(?))',
  idParam: (ids) => JSON.stringify(ids),
  bool: (value) => (value ? 1 : 0),
  forUpdate: () => '',
  jsonTexts: (column, alias) => `json_each(${column}) ${alias}`,
  jsonInt: (column, key) => `json_extract(${column}, '$.${key}')`,
  typed: () => '?',
  joinInOrder: 'CROSS JOIN',
  noIndex: (expr) => `+${expr}`,
  nulls: () => '',
  searchTerms: ftsQuery,
  searchMatch: 'task_search MATCH ?',
  pageDecisionsFirst: true,
  tableExists: `SELECT 1 AS one FROM sqlite_master WHERE type = 'table' AND name = ?`,
  decisionsTable: DECISIONS_TABLE,
  decisionIndexes: (table) => `PRAGMA threads = ${SORT_THREADS};\n${indexStatements(DECISION_INDEXES(table)).join(';\n')};\nPRAGMA threads = 0;`,
  decisionIndexList: (table) => indexStatements(DECISION_INDEXES(table)).map((s) => `PRAGMA threads = ${SORT_THREADS};\n${s};\nPRAGMA threads = 0;`)
}
