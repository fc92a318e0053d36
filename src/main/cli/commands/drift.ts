import type { Trace } from '../../../shared/trace'
import { buildTallies, driftOfTallies, SeatIndex, type TimedLabel } from '../../engine'
import { formatReadError, readLabelsFile, type Label } from '../../io'
import { DIALECT_OPTIONS, DIALECT_USAGE, dialectFrom, intFlag, parseFlags, readTraceInputs, required, withBadInput } from '../args'
import { UsageError, type CliIo, type Command } from '../command'

const usage = `Usage: arbiter drift --calibration F [--labels F] [--seed N] [--json]

Seat drift (docs/engine.md §9): per seat, the Laplace reliability on the most recent 20 % of labeled
tasks vs. on the rest, a bootstrap noise floor (200 resamples), flagged at |diff| > 2·floor when
each part holds ≥ 20 labeled tasks in which the seat moved. One JSON line per seat, in seat order:
  {"seat","recent","rest","diff","floor","flagged"}
plus "noTimeOrder": true when more than half of the labels share one time (\`at\`): there is no
order to judge, and no seat is flagged.

  --calibration F     the labeled tasks (trace JSONL, debate rounds, or label CSV by extension)
  --labels F          arbiter.labels/1: the labels and their time order (\`at\`; equal times keep
                      the file's order); a task's latest label counts, tasks without one are left
                      out. Without it, the gold of --calibration in file line order.
  --seed N            bootstrap seed (default 0)
  --json              accepted; the output is always JSON lines
${DIALECT_USAGE}

Exit 0 on success, 2 on bad input (errors on stderr).`

export const driftCommand: Command = {
  name: 'drift',
  summary: 'per-seat reliability drift of the recent labels vs. the rest (stateless)',
  usage,
  run: (argv, io) => withBadInput('drift', io, () => drift(argv, io))
}

async function drift(argv: string[], io: CliIo): Promise<number> {
  const values = parseFlags(argv, {
    calibration: { type: 'string' },
    labels: { type: 'string' },
    seed: { type: 'string' },
    json: { type: 'boolean' },
    ...DIALECT_OPTIONS
  })
  if (values.help === true) {
    io.out(usage)
    return 0
  }
  const calibrationPath = required('calibration', values.calibration)
  const seed = intFlag('seed', values.seed, 0, 0)
  const dialect = dialectFrom(values)

  const inputs = await readTraceInputs([calibrationPath], dialect, io)
  if (inputs === null) return 2
  const [traces] = inputs
  const seats = new SeatIndex()
  let labeled: TimedLabel[]
  if (values.labels === undefined) {
    // Gold in file order: the line order is the label time (docs/engine.md §9, docs/formats.md).
    labeled = traces.map((t, i) => ({ tallies: buildTallies(t, seats), time: i }))
  } else {
    const latest = await latestLabels(values.labels, traces, io)
    if (latest === null) return 2
    // In label-file order, so labels with equal times keep the order they were given in.
    const byTask = new Map(traces.map((t) => [t.task, t]))
    labeled = [...latest.values()]
      .sort((a, b) => a.order - b.order)
      .map(({ label: l }) => ({ tallies: buildTallies(byTask.get(l.task)!, seats, l.label), time: Date.parse(l.at) }))
  }
  for (const d of driftOfTallies(labeled, { seed })) {
    // docs/formats.md's line, plus `noTimeOrder: true` only when §9 withholds the verdict.
    io.out(JSON.stringify({ seat: d.seat, recent: d.recent, rest: d.rest, diff: d.diff, floor: d.floor, flagged: d.flagged, ...(d.noTimeOrder ? { noTimeOrder: true } : {}) }))
  }
  return 0
}

/**
 * Each task's latest label (by `at`; equal times: the later line, a relabel being history) with its
 * position among the labels read. A label for a task that is not in --calibration, or that is not
 * one of its candidates, is bad input; all such errors are printed before giving up (null).
 */
async function latestLabels(path: string, traces: readonly Trace[], io: CliIo): Promise<Map<string, { label: Label; order: number }> | null> {
  let read
  try {
    read = await readLabelsFile(path)
  } catch (error) {
    throw new UsageError(`cannot read ${path}: ${(error as Error).message}`)
  }
  for (const e of read.errors) io.err(formatReadError(e))
  let failed = read.errors.length > 0
  const byTask = new Map(traces.map((t) => [t.task, t]))
  const latest = new Map<string, { label: Label; order: number }>()
  read.labels.forEach((l, order) => {
    const trace = byTask.get(l.task)
    if (trace === undefined || !trace.candidates.includes(l.label)) {
      const rule = trace === undefined ? 'unknown-task — the task is not in --calibration' : `label-not-candidate — "${l.label}" is not a candidate`
      io.err(`${path}: task ${l.task}: ${rule}`)
      failed = true
      return
    }
    const prev = latest.get(l.task)
    if (prev === undefined || Date.parse(l.at) >= Date.parse(prev.label.at)) latest.set(l.task, { label: l, order })
  })
  return failed ? null : latest
}
