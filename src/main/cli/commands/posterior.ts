import { DEFAULT_METHOD, HYPER_NAMES, METHODS, runPosterior, type Method } from '../../engine'
import { DIALECT_OPTIONS, DIALECT_USAGE, dialectFrom, HYPER_OPTIONS, hyperFrom, intFlag, methodFrom, parseFlags, readTraceInputs, required, withBadInput } from '../args'
import type { CliIo, Command } from '../command'

const usage = `Usage: arbiter posterior --traces F --calibration F [--method M] [--b X --kappa X --s X --tau X --lambda X] [--seed N] [--json]

Prints one JSON line per task of --traces, in file order:
  {"task","posterior":{candidate:p},"answer","weights":{seat:w}}
("answer" is null where best-seat's seat gave no answer; its posterior is then uniform.)
Stateless: no database. Reliabilities are fitted on --calibration (its gold); best-seat picks its
seat there; majority, majority-final and ds-em read no label.

  --traces F          the tasks to score (trace JSONL, debate rounds, or label CSV by extension)
  --calibration F     labeled tasks the method is fitted on
  --method M          ${METHODS.join(' | ')} (default ${DEFAULT_METHOD}, docs/engine.md §11)
  --b --kappa --s --tau --lambda
                      the method's full hyperparameter set (shared: b s; per-agent: b kappa s;
                      tempered: b kappa s tau; confusion: lambda tau; standing-vote: b kappa) or none: then they are
                      CV-selected on --calibration. A partial set or an unused flag is exit 2.
  --seed N            tie-break and fold seed (default 0)
  --json              accepted; the output is always JSON lines
${DIALECT_USAGE}

Exit 0 on success, 2 on bad input (every file error on stderr as file:line: task T move M: rule — message).`

export const posteriorCommand: Command = {
  name: 'posterior',
  summary: 'per-task posterior, answer and seat weights for a trace file (stateless)',
  usage,
  run: (argv, io) => withBadInput('posterior', io, () => posterior(argv, io))
}

async function posterior(argv: string[], io: CliIo): Promise<number> {
  const values = parseFlags(argv, {
    traces: { type: 'string' },
    calibration: { type: 'string' },
    method: { type: 'string' },
    seed: { type: 'string' },
    json: { type: 'boolean' },
    ...HYPER_OPTIONS,
    ...DIALECT_OPTIONS
  })
  if (values.help === true) {
    io.out(usage)
    return 0
  }
  // Every flag is checked before any file is read: a usage mistake is reported without the cost of a read.
  const tracesPath = required('traces', values.traces)
  const calibrationPath = required('calibration', values.calibration)
  const method: Method = methodFrom(values.method, METHODS, DEFAULT_METHOD)
  const hyper = hyperFrom(values, method, HYPER_NAMES[method])
  const seed = intFlag('seed', values.seed, 0, 0)
  const dialect = dialectFrom(values)

  const inputs = await readTraceInputs([tracesPath, calibrationPath], dialect, io)
  if (inputs === null) return 2
  const [traces, calibration] = inputs

  const results = runPosterior({ method, traces, calibration, hyper, seed })
  const byTask = new Map(results.map((r) => [r.task, r]))
  for (const t of traces) {
    const r = byTask.get(t.task)
    if (r === undefined) throw new Error(`engine returned no posterior for task ${t.task}`)
    io.out(JSON.stringify({ task: r.task, posterior: r.posterior, answer: r.answer, weights: r.weights }))
  }
  return 0
}
