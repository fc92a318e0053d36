import type { Dialect } from '../ops/dialect'
import { LIVE_LABEL } from '../label-rules'
import { indexStatements } from '../fit-decisions'
import { DECISION_INDEXES, DECISIONS_TABLE } from './migrations/0007-decision-rounds'

/**
 * PostgreSQL's side of the operations written once (../ops/dialect.ts): recording order is the
 * identity `seq`; an id list is a text[]; flags are booleans; a write locks the rows it relies on.
 */
/**
 * A queue index of a million decisions sorts about 70 MB of keys: with the server's default 64 MB
 * of maintenance memory the sort spills to temporary files. The build's own transaction gets more
 * (SET LOCAL: nothing else on the connection or the server changes).
 */
const SORT_MEMORY = "SET LOCAL maintenance_work_mem = '256MB';"

export const POSTGRES: Dialect = {
  backend: 'postgres',
  seq: 'seq',
  idSet: '(SELECT unnest(?::text[]))',
  idRows: '(SELECT unnest(?::text[]) AS id)',
  idParam: (ids) => ids,
  bool: (value) => value,
  forUpdate: (of) => (of === undefined ? ' FOR UPDATE' : ` FOR UPDATE OF ${of}`),
  jsonTexts: (column, alias) => `json_array_elements_text(${column}) AS ${alias}(value)`,
  jsonInt: (column, key) => `(${column} ->> '${key}')::bigint`,
  typed: (type) => `?::${type}`,
  joinInOrder: 'JOIN',
  noIndex: (expr) => expr,
  // PostgreSQL puts NULLs last in ascending order; the queue indexes of migration 0001 match either way round.
  nulls: (direction) => (direction === 'ASC' ? ' NULLS FIRST' : ' NULLS LAST'),
  searchTerms: searchQuery,
  searchMatch: 'words @@ ?::tsquery',
  pageDecisionsFirst: true,
  keepsLabeledCounts: false,
  // The labeled tasks hashed once (a hashed subplan: task_id is never NULL, so NOT IN means NOT
  // EXISTS), a filter on the queue index's ordered walk. NOT EXISTS became a hash anti join, which
  // loses the index's order: every deferred row was sorted for a deep page.
  unlabeledDecision: `d.task_id NOT IN (SELECT x.task_id FROM labels x WHERE ${LIVE_LABEL('x')})`,
  tableExists: 'SELECT 1 AS one FROM pg_tables WHERE schemaname = current_schema() AND tablename = ?',
  tableColumns: 'SELECT column_name AS name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ? ORDER BY ordinal_position',
  decisionsTable: DECISIONS_TABLE,
  // The planner's row counts for the new table: without them its first queue reads guess.
  decisionIndexes: (table) => `${SORT_MEMORY}\n${indexStatements(DECISION_INDEXES(table)).join(';\n')};\nANALYZE ${table};`,
  decisionIndexList: (table) => indexStatements(DECISION_INDEXES(table)).map((s) => `${SORT_MEMORY}\n${s}`)
}

/*
 * Question search, with the semantics of the SQLite queue (sqlite/dialect.ts `ftsQuery`, an
 * FTS5 `unicode61 remove_diacritics 2` index): the words of the text, case- and accent-folded,
 * each matched as a prefix of a question's word, all of them required. The lexemes are made here
 * in code, for the index and the query alike, so PostgreSQL's text-search parser and dictionaries
 * (which split and stem differently) play no part: the index is `array_to_tsvector` of the words
 * and the query a tsquery of quoted prefix lexemes.
 */

/** Letters and digits; like unicode61, anything else (underscore included) separates words. */
const WORD = /[\p{L}\p{N}]+/gu

function fold(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase()
}

/** The distinct words of a question, as index lexemes. */
export function searchLexemes(text: string | null): string[] {
  if (text === null) return []
  return [...new Set(fold(text).match(WORD) ?? [])]
}

/** The tsquery text for a search (the first 16 words, each a prefix), or null when it has no word. */
export function searchQuery(text: string): string | null {
  const words = (fold(text).match(WORD) ?? []).slice(0, 16)
  // Lexemes hold letters and digits only, so quoting needs no escaping.
  return words.length === 0 ? null : words.map((w) => `'${w}':*`).join(' & ')
}
