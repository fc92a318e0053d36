/**
 * What really differs between the two backends' SQL, for the operations written once (ops/):
 * everything else in a statement is the same text in SQLite and PostgreSQL (`?` placeholders are
 * rewritten by the PostgreSQL connection).
 */
import type { LabelDialect } from '../label-rules'

export interface Dialect extends LabelDialect {
  backend: 'sqlite' | 'postgres'
  /** A boolean as a parameter (SQLite stores 0/1). */
  bool(value: boolean): unknown
  /**
   * The row lock a write takes on a row it reads before changing it (` FOR UPDATE [OF t]`). Empty
   * in SQLite, whose write transaction holds the whole database from its first statement.
   */
  forUpdate(of?: string): string
  /** The strings of a JSON array column as a table `alias` with one column, `value`. */
  jsonTexts(column: string, alias: string): string
  /** A whole number held under `key` of a JSON object column. */
  jsonInt(column: string, key: string): string
  /** A parameter PostgreSQL cannot type from its place (in a SELECT list): `?::text`. */
  typed(type: 'text' | 'json'): string
  /**
   * The join that keeps its left side the outer loop: SQLite's CROSS JOIN (its planner would
   * otherwise start from the one published import and sort its tasks); PostgreSQL plans its own.
   */
  joinInOrder: string
  /** An expression no index may serve (SQLite's unary `+`), so the planner walks the one it should. */
  noIndex(expr: string): string
  /** How NULLs of a nullable sort key order: as the smallest values, in both (PostgreSQL says so). */
  nulls(direction: 'ASC' | 'DESC'): string
  /** The question-search terms of a text (null: it has no word), and the match that takes them as its one parameter. */
  searchTerms(text: string): string | null
  searchMatch: string
  /**
   * Whether a page of the decided queue picks its decision rows first, from the decisions alone
   * (SQLite: a covering walk of one queue index, then only the page's rows joined to their tasks).
   */
  pageDecisionsFirst: boolean
  /**
   * Whether the current fit's labeled tasks are kept counted as of a label seq (SQLite's
   * fit_labeled_counts, decided-counts.ts). Only where seqs are handed out in commit order: one
   * writer at a time. PostgreSQL's identity values are not, so it counts them on every read.
   */
  keepsLabeledCounts: boolean
  /**
   * The decided queue's condition that the decision row `d`'s task has no live label (its page
   * walks a queue index in order and skips the labeled tasks it meets).
   */
  unlabeledDecision: string
  /** One row when the table named by the one parameter exists, none otherwise. */
  tableExists: string
  /** The column names (`name`) of the table named by the one parameter, in order. */
  tableColumns: string
  /** A fit's decisions table, and its queue indexes (each backend's latest migration's shape). */
  decisionsTable(table: string): string
  decisionIndexes(table: string): string
  /** The queue indexes one by one (each may be repeated: IF NOT EXISTS); `decisionIndexes` adds what finishing needs. */
  decisionIndexList(table: string): string[]
}
