/**
 * An operation written ONCE for both backends: a generator that yields its statements and receives
 * each one's result. Each driver runs a plan inside its own single transaction — synchronously in
 * SQLite (sqlite/plan-driver.ts), awaiting each statement in PostgreSQL (postgres/plan-driver.ts) —
 * so the logic between statements (checks, the next statement's parameters, the mapping to DTOs)
 * exists in one copy. A plan is made by calling its operation: PostgreSQL calls it again on each
 * serialization retry, so a plan holds no state from one run to the next.
 */
export type Statement =
  /** Hands back the rows. */
  | { kind: 'rows'; sql: string; params: unknown[] }
  /** Hands back how many rows it changed. */
  | { kind: 'run'; sql: string; params: unknown[] }
  /** Several statements without parameters (DDL); hands back nothing. */
  | { kind: 'exec'; sql: string; params: [] }
  /**
   * Hands back the rows of a large result, mostly bytes: PostgreSQL reads it by binary COPY
   * (postgres/copy.ts), which needs each column's type; SQLite as `rows`.
   */
  | { kind: 'bulk'; sql: string; params: unknown[]; columns: TypedColumns }

/** A column's type, where a backend needs it (PostgreSQL's binary COPY; json is its text there). */
export type ColumnType = 'text' | 'json' | 'int4' | 'float8' | 'bytea'

/** Columns in a statement's order, each with its type. */
export type TypedColumns = readonly (readonly [name: string, type: ColumnType])[]

export type Plan<T> = Generator<Statement, T, unknown>

/** Runs `sql` and hands its rows back to the plan (use with `yield*`). */
export function* rowsOf<R>(sql: string, ...params: unknown[]): Generator<Statement, R[], unknown> {
  return (yield { kind: 'rows', sql, params }) as R[]
}

/** Runs `sql`, a large result typed by `columns`, and hands its rows back (see Statement). */
export function* bulkRowsOf<R>(sql: string, columns: TypedColumns, ...params: unknown[]): Generator<Statement, R[], unknown> {
  return (yield { kind: 'bulk', sql, params, columns }) as R[]
}

/** The first row of `sql`, or undefined. */
export function* rowOf<R>(sql: string, ...params: unknown[]): Generator<Statement, R | undefined, unknown> {
  const rows = yield* rowsOf<R>(sql, ...params)
  return rows[0]
}

/** Runs a write statement; hands back the number of rows it changed. */
export function* run(sql: string, ...params: unknown[]): Generator<Statement, number, unknown> {
  return (yield { kind: 'run', sql, params }) as number
}

/** Runs parameterless statements (DDL). */
export function* exec(sql: string): Generator<Statement, void, unknown> {
  yield { kind: 'exec', sql, params: [] }
}
