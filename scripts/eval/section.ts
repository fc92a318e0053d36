import { resolve } from 'node:path'

/**
 * One section of `npm run eval`: a named check over real or simulated data that prints a table
 * (`lines`) and says whether its assertions held. Sections report what they measure; only the
 * claims an issue makes are asserted, and a failed assertion is a line saying what failed.
 */
export interface EvalSection {
  name: string
  /** One line for `npm run eval -- --list` (optional). */
  summary?: string
  run(): Promise<{ ok: boolean; lines: string[] }>
}

/**
 * The shared datasets, read where CI puts them: the repository is cloned next to a copy of
 * shared/, so the data is ../shared/data relative to the repository root (ARBITER_DATA_DIR
 * overrides it for other layouts). Read only, never written to.
 */
export const DATA_DIR = process.env.ARBITER_DATA_DIR ?? resolve(__dirname, '../../../shared/data')
