import { DEFAULT_METHOD, METHODS, MethodRefused, runEvaluate, type Method } from '../../engine'
import { DIALECT_OPTIONS, DIALECT_USAGE, dialectFrom, intFlag, methodFrom, parseFlags, readTraceInputs, required, withBadInput } from '../args'
import type { CliIo, Command } from '../command'

const usage = `Usage: arbiter evaluate --traces F [--method M|all] [--folds 5] [--seed N] [--json]

Honest evaluation by nested cross-validation on the gold of --traces (docs/engine.md §7), pooled over
all out-of-fold predictions. One JSON line per method:
  {"method","accuracy","brier","nll","eceEw","eceEm","selected":[{hyperparameter: value} per outer fold]}
or {"method","refused":"reason"} for a method that cannot run on the file.

  --traces F          labeled tasks (trace JSONL, debate rounds, or label CSV by extension with --gold)
  --method M|all      ${METHODS.join(' | ')}, or all of them in that order (default ${DEFAULT_METHOD}, docs/engine.md §11)
  --folds N           folds of the nested cross-validation (default 5)
  --seed N            outer fold seed; inner folds of outer fold j use seed + 1 + j (default 0)
  --json              accepted; the output is always JSON lines
${DIALECT_USAGE}`

export const evaluateCommand: Command = {
  name: 'evaluate',
  summary: 'nested-CV accuracy, Brier, NLL and ECE of one or all methods on a labeled file (stateless)',
  usage,
  run: (argv, io) => withBadInput('evaluate', io, () => evaluate(argv, io))
}

async function evaluate(argv: string[], io: CliIo): Promise<number> {
  const values = parseFlags(argv, {
    traces: { type: 'string' },
    method: { type: 'string' },
    folds: { type: 'string' },
    seed: { type: 'string' },
    json: { type: 'boolean' },
    ...DIALECT_OPTIONS
  })
  if (values.help === true) {
    io.out(usage)
    return 0
  }
  const tracesPath = required('traces', values.traces)
  const choice = methodFrom<Method | 'all'>(values.method, [...METHODS, 'all'], DEFAULT_METHOD)
  const methods: readonly Method[] = choice === 'all' ? METHODS : [choice]
  const folds = intFlag('folds', values.folds, 2, 5)
  const seed = intFlag('seed', values.seed, 0, 0)
  const dialect = dialectFrom(values)

  const inputs = await readTraceInputs([tracesPath], dialect, io)
  if (inputs === null) return 2
  const [traces] = inputs

  for (const method of methods) io.out(JSON.stringify(evaluateOne(method, traces, folds, seed)))
  return 0
}

/** One output line; a refusal is a line of its own, so `all` still reports the other methods. */
function evaluateOne(method: Method, traces: Parameters<typeof runEvaluate>[0]['traces'], folds: number, seed: number): object {
  let r: ReturnType<typeof runEvaluate>
  try {
    r = runEvaluate({ method, traces, folds, seed })
  } catch (error) {
    if (error instanceof MethodRefused) return { method, refused: error.message }
    throw error
  }
  if ('refused' in r) return { method: r.method, refused: r.refused }
  return { method: r.method, accuracy: r.accuracy, brier: r.brier, nll: r.nll, eceEw: r.eceEw, eceEm: r.eceEm, selected: r.selected }
}
