import type { Dialect } from '../ops/dialect'
import { LIVE_LABEL } from '../label-rules'
import { indexStatements } from '../fit-decisions'
import { CONNECTION_CACHE_KIB } from './connection'
import { DECISION_INDEXES } from './migrations/0004-decisions-per-fit'
import { DECISIONS_TABLE } from './migrations/0009-decision-rounds'

/** Words of the search text, each a quoted FTS5 prefix term (quotes cannot occur inside one). */
export function ftsQuery(text: string): string | null {
  const words = text.match(/[\p{L}\p{N}_]+/gu)?.slice(0, 16) ?? []
  return words.length === 0 ? null : words.map((w) => `"${w}"*`).join(' ')
}

/**
 * Threads that help each sort of a decisions table's index build: the sorter's helpers spend much
 * of their time waiting on memory, so even on 2 cores four of them build a million rows' four
 * indexes sooner than one.
 */
const SORT_THREADS = 4

/**
 * The page cache (KiB) while a decisions index is sorted: SQLite's sorter fills that much before
 * it hands a sorted run to a helper, and runs that fit the processor's caches sort faster than
 * runs of the connection's 16 MiB. The connection's own size is restored after each build.
 */
const SORT_CACHE_KIB = 2_000

/** Index statements run with the sorter's helpers and its cache, each setting restored after. */
const sorted = (statements: string[]): string =>
  `PRAGMA threads = ${SORT_THREADS};\nPRAGMA cache_size = -${SORT_CACHE_KIB};\n${statements.join(';\n')};\nPRAGMA cache_size = -${CONNECTION_CACHE_KIB};\nPRAGMA threads = 0;`

/**
 * SQLite's side of the operations written once (../ops/dialect.ts): recording order is the rowid;
 * an id list travels as JSON; a flag is 0/1; no row locks (a write transaction holds the database).
 */
export const SQLITE: Dialect = {
  backend: 'sqlite',
  seq: 'rowid',
  idSet: '(SELECT value FROM json_each(?))',
  idRows: '(SELECT value AS id FROM json_each(?))',
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
  keepsLabeledCounts: true,
  // One probe of the labels' task index a row: cheap in process.
  unlabeledDecision: `NOT EXISTS (SELECT 1 FROM labels x WHERE x.task_id = d.task_id AND ${LIVE_LABEL('x')})`,
  tableExists: `SELECT 1 AS one FROM sqlite_master WHERE type = 'table' AND name = ?`,
  tableColumns: 'SELECT name FROM pragma_table_info(?) ORDER BY cid',
  decisionsTable: DECISIONS_TABLE,
  decisionIndexes: (table) => sorted(indexStatements(DECISION_INDEXES(table))),
  decisionIndexList: (table) => indexStatements(DECISION_INDEXES(table)).map((s) => sorted([s]))
}
