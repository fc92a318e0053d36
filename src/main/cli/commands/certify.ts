import type { Trace } from '../../../shared/trace'
import {
  buildTallies, certifySplits, certifyTallies, DEFAULT_BOUND, DEFAULT_METHOD, HYPER_NAMES, METHODS, requireOneCandidateSet, SeatIndex,
  STATE_SOURCES, type Budget, type CertifySummary, type Method, type StateSource, type TaskVerdict
} from '../../engine'
import {
  DIALECT_OPTIONS, DIALECT_USAGE, dialectFrom, HYPER_OPTIONS, hyperFrom, intFlag, methodFrom, numberFlag, parseFlags, readTraceInputs, required, withBadInput
} from '../args'
import { boundFlag } from '../bound-flag'
import { UsageError, type CliIo, type Command } from '../command'

const usage = `Usage: arbiter certify --calibration F --traces F (--beta B | --budget-lambda L | --budget-lambda auto)
                       [--method M] [--b X --kappa X --s X --tau X --lambda X] [--state social|posterior]
                       [--bound binomial|hoeffding] [--seed N]
       arbiter certify --labeled F --splits N (budget flag) [method, hyperparameter, state, bound and seed flags]

The act-or-defer certificate (docs/engine.md §8), stateless. The first form prints one JSON line per task
of --traces, in file order:
  {"task","decision":"act"|"defer","stopRound","answer","bound":[L_t],"k":[k_t],"n":[n_t],"gap","why":{"qhat","bias","conc","n"}}
(n_t: the neighbourhood size behind L_t, ties at the k-NN radius included, so n_t ≥ k_t)
then {"summary":{"act","accAct","wa","waOverBeta","rnd","beta","alpha","lambda","reason"}} (accAct, wa and
waOverBeta are null unless every task of --traces has gold). The second form is the evaluation
protocol: split i puts a task in calibration iff H(\`\${seed+i}:eval:\${task}\`) mod 2 = 0 and scores the
rest; one {"summary":…} line per split, then {"splits":{"act","accAct","wa","waOverBeta","mean","max"}}.

  --calibration F     the calibration set C: its tasks with gold (random labels); states out-of-fold
  --traces F          the tasks to decide (cut to the T of C; a shorter trace repeats its last state)
  --labeled F         a labeled file to split (every task needs gold)
  --splits N          number of seeded 50/50 splits (with --labeled)
  --beta B            absolute wrong-action budget β in [0, 1]
  --budget-lambda L   relative budget β = L·ê_T (ê_T: out-of-fold final-round error on C), L ≥ 0;
                      or auto: λ chosen on C (AoD B.5). Exactly one budget flag is required.
  --method M          ${METHODS.join(' | ')} (default ${DEFAULT_METHOD}, docs/engine.md §11)
  --b --kappa --s --tau --lambda
                      the method's full hyperparameter set, or none: CV-selected on the calibration
                      side (inside every out-of-fold fit too). --lambda stays confusion's concentration.
  --state S           social (default) | posterior (the aggregator's posterior on the 0.05 grid)
  --bound B           binomial (default: Clopper–Pearson on the neighbourhood, 𝒦 up to 4096) |
                      hoeffding (AoD as published, 𝒦 = 128, 256, 512); λ = auto runs with it
  --seed N            seed of folds, ties, splits and spot-checks (default 0)
  --json              accepted; the output is always JSON lines
ds-em / ds-em-full run unsupervised on --traces (as posterior does), on the whole file with --labeled.
${DIALECT_USAGE}

Exit 0 on success, 2 on bad input (errors on stderr).`

export const certifyCommand: Command = {
  name: 'certify',
  summary: 'act-or-defer decisions with their bounds, or the split evaluation protocol (stateless)',
  usage,
  run: (argv, io) => withBadInput('certify', io, () => certify(argv, io))
}

/** Exactly one of --beta / --budget-lambda (docs/formats.md), parsed into a budget. */
function budgetFrom(beta: string | undefined, lambda: string | undefined): Budget {
  if ((beta === undefined) === (lambda === undefined)) {
    throw new UsageError('exactly one budget flag is required: --beta B, --budget-lambda L or --budget-lambda auto')
  }
  if (beta !== undefined) {
    const b = numberFlag('beta', beta) as number
    if (!(b >= 0 && b <= 1)) throw new UsageError(`--beta must be in [0, 1], got ${beta}`)
    return { kind: 'absolute', beta: b }
  }
  if (lambda === 'auto') return { kind: 'auto' }
  const l = numberFlag('budget-lambda', lambda) as number
  if (!(l >= 0)) throw new UsageError(`--budget-lambda must be a number ≥ 0 or auto, got ${lambda}`)
  return { kind: 'relative', lambda: l }
}

async function certify(argv: string[], io: CliIo): Promise<number> {
  const values = parseFlags(argv, {
    calibration: { type: 'string' },
    traces: { type: 'string' },
    labeled: { type: 'string' },
    splits: { type: 'string' },
    beta: { type: 'string' },
    'budget-lambda': { type: 'string' },
    method: { type: 'string' },
    state: { type: 'string' },
    bound: { type: 'string' },
    seed: { type: 'string' },
    json: { type: 'boolean' },
    ...HYPER_OPTIONS,
    ...DIALECT_OPTIONS
  })
  if (values.help === true) {
    io.out(usage)
    return 0
  }
  // Every flag is checked before any file is read.
  const split = values.labeled !== undefined || values.splits !== undefined
  if (split && (values.calibration !== undefined || values.traces !== undefined)) {
    throw new UsageError('--labeled/--splits replace --calibration/--traces; give one form or the other')
  }
  const labeledPath = split ? required('labeled', values.labeled) : ''
  if (split && values.splits === undefined) throw new UsageError('--splits N is required with --labeled')
  const splits = split ? intFlag('splits', values.splits, 1, 1) : 0
  const calibrationPath = split ? '' : required('calibration', values.calibration)
  const tracesPath = split ? '' : required('traces', values.traces)
  const budget = budgetFrom(values.beta, values['budget-lambda'])
  const method: Method = methodFrom(values.method, METHODS, DEFAULT_METHOD)
  const hyper = hyperFrom(values, method, HYPER_NAMES[method])
  const state: StateSource = methodFrom(values.state, STATE_SOURCES, 'social')
  const bound = boundFlag(values.bound) ?? DEFAULT_BOUND
  const seed = intFlag('seed', values.seed, 0, 0)
  const dialect = dialectFrom(values)
  const common = { method, hyper, budget, state, bound, seed }

  if (split) {
    const inputs = await readTraceInputs([labeledPath], dialect, io)
    if (inputs === null) return 2
    const [traces] = inputs
    const unlabeled = traces.find((t) => t.gold == null)
    if (unlabeled !== undefined) throw new UsageError(`every task of --labeled needs gold; task "${unlabeled.task}" has none`)
    requireSharedSet(method, traces)
    const seats = new SeatIndex()
    const labeled = traces.map((t) => buildTallies(t, seats))
    const { report } = certifySplits({ ...common, labeled, splits, fitOptions: { pool: labeled, labels: traces[0]?.candidates } }, (_, s) =>
      io.out(JSON.stringify({ summary: summaryLine(s) }))
    )
    io.out(JSON.stringify({ splits: report }))
    return 0
  }

  const inputs = await readTraceInputs([calibrationPath, tracesPath], dialect, io)
  if (inputs === null) return 2
  const [calibrationTraces, traces] = inputs
  requireSharedSet(method, [...calibrationTraces, ...traces])
  const seats = new SeatIndex()
  const calibration = calibrationTraces.map((t) => buildTallies(t, seats))
  const scored = traces.map((t) => buildTallies(t, seats))
  const first = calibrationTraces[0] ?? traces[0]
  const result = certifyTallies({ ...common, calibration, scored, fitOptions: { pool: scored, labels: first?.candidates } })
  for (const task of result.tasks) io.out(JSON.stringify(taskLine(task)))
  io.out(JSON.stringify({ summary: summaryLine(result.summary) }))
  return 0
}

/** confusion and ds-em-full need one candidate set over every task they see (docs/engine.md §5, §6); ds-em runs on per-task sets. */
function requireSharedSet(method: Method, traces: readonly Trace[]): void {
  if (method === 'confusion' || method === 'ds-em-full') requireOneCandidateSet(method, traces)
}

/** docs/formats.md's per-task line, fields in its order. */
function taskLine(t: TaskVerdict): object {
  const why = t.why === null ? null : { qhat: t.why.qhat, bias: t.why.bias, conc: t.why.conc, n: t.why.n }
  return { task: t.task, decision: t.decision, stopRound: t.stopRound, answer: t.answer, bound: t.bound, k: t.k, n: t.n, gap: t.gap, why }
}

function summaryLine(s: CertifySummary): object {
  return { act: s.act, accAct: s.accAct, wa: s.wa, waOverBeta: s.waOverBeta, rnd: s.rnd, beta: s.beta, alpha: s.alpha, lambda: s.lambda, reason: s.reason }
}
