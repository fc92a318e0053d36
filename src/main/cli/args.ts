import { parseArgs, type ParseArgsConfig } from 'node:util'
import type { Trace } from '../../shared/trace'
import { MethodRefused } from '../engine'
import { DEFAULT_DIALECT, formatReadError, parseColumns, parseDelimiter, readTraceOrCsv, type CsvDialect } from '../io'
import { UsageError, type CliIo } from './command'

type ParseArgsOptionsConfig = NonNullable<ParseArgsConfig['options']>

/**
 * Strict flag parsing for the commands: an unknown flag, a missing value or a positional argument
 * is a UsageError (exit 2), never silently ignored. `--help` is accepted by every command.
 */
export function parseFlags<const O extends ParseArgsOptionsConfig>(argv: string[], options: O) {
  try {
    return parseArgs({ args: argv, options: { ...options, help: { type: 'boolean', short: 'h' } }, strict: true, allowPositionals: false }).values
  } catch (error) {
    throw new UsageError((error as Error).message)
  }
}

/** A finite number, written as one (no empty string, no `0x`, no trailing text). */
export function numberFlag(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined
  const n = Number(value)
  if (value.trim() === '' || !Number.isFinite(n) || !/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(value.trim()))
    throw new UsageError(`--${name} must be a number, got "${value}"`)
  return n
}

/** An integer ≥ min, or `fallback` when the flag is absent. */
export function intFlag(name: string, value: string | undefined, min: number, fallback: number): number {
  const n = numberFlag(name, value)
  if (n === undefined) return fallback
  if (!Number.isSafeInteger(n) || n < min) throw new UsageError(`--${name} must be an integer ≥ ${min}, got "${value}"`)
  return n
}

/** The CSV dialect flags of every command that reads label-aggregation CSV (docs/formats.md). */
export const DIALECT_OPTIONS = {
  columns: { type: 'string' },
  delimiter: { type: 'string' },
  'no-header': { type: 'boolean' },
  gold: { type: 'string' }
} as const satisfies ParseArgsOptionsConfig

export function dialectFrom(values: { columns?: string; delimiter?: string; 'no-header'?: boolean; gold?: string }): CsvDialect {
  try {
    const dialect: CsvDialect = {
      columns: values.columns === undefined ? DEFAULT_DIALECT.columns : parseColumns(values.columns),
      header: values['no-header'] !== true
    }
    if (values.delimiter !== undefined) dialect.delimiter = parseDelimiter(values.delimiter)
    if (values.gold !== undefined) dialect.gold = values.gold
    return dialect
  } catch (error) {
    throw new UsageError((error as Error).message)
  }
}

export const DIALECT_USAGE = `CSV inputs (a file ending in .csv, .tsv or .txt is label-aggregation CSV, docs/formats.md; debate
rounds — a header, or a JSONL file's first object, naming round and seat or answer — take only --delimiter):
  --columns A,B,C     the order of task,worker,label in the file (default task,worker,label)
  --delimiter D       comma | semicolon | tab | space (runs of blanks); default tab for .tsv, else comma
  --no-header         the file has no header line (by default the first line is skipped)
  --gold FILE         gold labels, same flags, two columns task,label; gold for tasks absent
                      from the file is ignored`

/** The hyperparameter flags of `posterior` (and of the commands that take "hyperparameters as posterior"). */
export const HYPER_OPTIONS = {
  b: { type: 'string' },
  kappa: { type: 'string' },
  s: { type: 'string' },
  tau: { type: 'string' },
  lambda: { type: 'string' }
} as const satisfies ParseArgsOptionsConfig

type HyperFlag = keyof typeof HYPER_OPTIONS
const HYPER_FLAGS = Object.keys(HYPER_OPTIONS) as HyperFlag[]

// The domain of each hyperparameter (docs/engine.md §4–§5): b is a prior mean, s and λ are prior
// strengths, τ a temperature; κ scales a difference of reliabilities and may be any real.
const HYPER_DOMAIN: Record<HyperFlag, [(x: number) => boolean, string]> = {
  b: [(x) => x > 0 && x < 1, 'in (0, 1)'],
  kappa: [() => true, 'a number'],
  s: [(x) => x > 0, '> 0'],
  tau: [(x) => x > 0, '> 0'],
  lambda: [(x) => x > 0, '> 0']
}

/**
 * The method's full hyperparameter set, or null when none is given (then CV selects them,
 * docs/engine.md §7). A flag the method does not use, or a partial set, is a UsageError (docs/formats.md).
 */
export function hyperFrom(
  values: Partial<Record<HyperFlag, string>>,
  method: string,
  uses: readonly HyperFlag[]
): Partial<Record<HyperFlag, number>> | null {
  const given = HYPER_FLAGS.filter((h) => values[h] !== undefined)
  if (given.length === 0) return null
  const unused = given.filter((h) => !uses.includes(h))
  const takes = uses.length === 0 ? 'takes no hyperparameters' : `takes ${uses.map((h) => `--${h}`).join(' ')}`
  if (unused.length > 0) throw new UsageError(`method ${method} does not use ${unused.map((h) => `--${h}`).join(' ')}; it ${takes}`)
  const missing = uses.filter((h) => values[h] === undefined)
  if (missing.length > 0)
    throw new UsageError(`partial hyperparameter set for ${method}: missing ${missing.map((h) => `--${h}`).join(' ')}; give all of ${uses.map((h) => `--${h}`).join(' ')} or none (then they are CV-selected on --calibration)`)
  const hyper: Partial<Record<HyperFlag, number>> = {}
  for (const h of uses) {
    const x = numberFlag(h, values[h]) as number
    const [ok, domain] = HYPER_DOMAIN[h]
    if (!ok(x)) throw new UsageError(`--${h} must be ${domain}, got ${values[h]}`)
    hyper[h] = x
  }
  return hyper
}

/** `--method`: one of `methods`, or `fallback` when absent. */
export function methodFrom<M extends string>(value: string | undefined, methods: readonly M[], fallback: M): M {
  if (value === undefined) return fallback
  if (!(methods as readonly string[]).includes(value)) throw new UsageError(`--method must be one of ${methods.join(', ')}; got "${value}"`)
  return value as M
}

/** A required string flag. */
export function required(name: string, value: string | undefined): string {
  if (value === undefined || value === '') throw new UsageError(`--${name} FILE is required`)
  return value
}

/**
 * Reads every input file (trace JSONL or label CSV by extension), all of them before judging, so the
 * user sees every error of every file at once. Any reader error: each is printed on stderr as
 * `file:line: task T move M: rule — message` and the result is null (exit 2). A file that cannot be
 * opened is bad input too.
 */
export async function readTraceInputs(paths: readonly string[], dialect: CsvDialect, io: CliIo): Promise<Trace[][] | null> {
  const out: Trace[][] = []
  let failed = false
  for (const path of paths) {
    let res
    try {
      res = await readTraceOrCsv(path, dialect)
    } catch (error) {
      const code = (error as { code?: unknown }).code
      if (typeof code === 'string' && ['ENOENT', 'EISDIR', 'EACCES', 'ENOTDIR'].includes(code))
        throw new UsageError(`cannot read ${path}: ${(error as Error).message}`)
      throw error
    }
    for (const e of res.errors) io.err(formatReadError(e))
    failed ||= res.errors.length > 0
    out.push(res.traces)
  }
  return failed ? null : out
}

/**
 * Bad input is exit 2 with the reason on stderr (docs/formats.md, CLI contract), also when the command is
 * called in-process rather than through the dispatcher: a usage error, or a method the engine
 * refuses to run on these files (e.g. confusion on tasks with different candidate sets).
 */
export async function withBadInput(name: string, io: CliIo, body: () => Promise<number>): Promise<number> {
  try {
    return await body()
  } catch (error) {
    if (error instanceof UsageError || error instanceof MethodRefused) {
      io.err(`arbiter ${name}: ${error.message}`)
      return 2
    }
    throw error
  }
}
