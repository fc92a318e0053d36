/**
 * A read written ONCE for both backends: a generator that yields its statements and receives each
 * one's rows. Each backend drives it inside its own single read transaction — synchronously in
 * SQLite, awaiting each statement in PostgreSQL — so the logic between statements (checks, the
 * next statement's parameters, the mapping to DTOs) exists in one copy.
 */
export type Statement = { sql: string; params: unknown[] }

export type ReadPlan<T> = Generator<Statement, T, unknown[]>

/** Runs `sql` and hands its rows back to the plan (use with `yield*`). */
export function* rowsOf<R>(sql: string, ...params: unknown[]): Generator<Statement, R[], unknown[]> {
  return (yield { sql, params }) as R[]
}
