import { dataDir } from '../data-dir'

/**
 * One section of `npm run eval`: a named check over real or simulated data that prints a table
 * (`lines`) and says whether its assertions held. Sections report what they measure; only the
 * claims the engine is held to are asserted, and a failed assertion is a line saying what failed.
 */
export interface EvalSection {
  name: string
  /** One line for `npm run eval -- --list` (optional). */
  summary?: string
  run(): Promise<{ ok: boolean; lines: string[] }>
}

/**
 * The real datasets: the data folder as scripts/data-dir.ts resolves it (ARBITER_DATA_DIR, else
 * shared/data beside the repository, where CI clones it). Read only, never written to.
 */
export const DATA_DIR = dataDir()
