import type { Dialect } from '../ops/dialect'
import { DECISION_INDEXES, DECISIONS_TABLE } from './migrations/0002-decisions-per-fit'

/**
 * PostgreSQL's side of the operations written once (../ops/dialect.ts): recording order is the
 * identity `seq`; an id list is a text[]; flags are booleans; a write locks the rows it relies on.
 */
export const POSTGRES: Dialect = {
  backend: 'postgres',
  seq: 'seq',
  idSet: '(SELECT unnest(?::text[]))',
  idParam: (ids) => ids,
  bool: (value) => value,
  forUpdate: (of) => (of === undefined ? ' FOR UPDATE' : ` FOR UPDATE OF ${of}`),
  jsonInt: (column, key) => `(${column} ->> '${key}')::bigint`,
  typed: (type) => `?::${type}`,
  joinInOrder: 'JOIN',
  noIndex: (expr) => expr,
  tableExists: 'SELECT 1 AS one FROM pg_tables WHERE schemaname = current_schema() AND tablename = ?',
  decisionsTable: DECISIONS_TABLE,
  // The planner's row counts for the new table: without them its first queue reads guess.
  decisionIndexes: (table) => `${DECISION_INDEXES(table)}\nANALYZE ${table};`
}
