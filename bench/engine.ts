/**
 * `npm run bench -- engine`: the aggregation engine's hot paths against their targets,
 * each beside a physical floor measured in the same run.
 * - posterior for 100,000 tasks (3 seats, 3 rounds, K = 2 and K = 4) from in-memory tallies with
 *   fixed hyperparameters (≤ 0.3 s) vs a bare loop summing the same Int32Array counts; the same
 *   through the CLI end to end (spawned, parse and output included) vs JSON.parse of its file, and
 *   (at K = 2) the CLI's in-process stages so the gap is explained;
 * - the deployed CV fit of the per-agent grid (360 points) on 10,000 labeled tasks (≤ 2 s) vs 360
 *   bare passes over their counts;
 * - nested-CV `evaluate --method all` on 4,500 tasks (≤ 20 s), spawned, vs the engine alone;
 * - the default method (the standing vote, docs/engine.md §11): its posterior on the same 100,000 tasks
 *   (≤ 0.3 s) and its deployed fit (45-point CV with cross-fitted recalibration) on 10,000 (≤ 2 s);
 * - an EM iteration of Dawid–Skene, full and one-coin, on AdultContent2 vs a hand-written E+M pass
 *   over the same arrays (≤ 2×; em-floor.ts).
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Trace } from '@shared/trace'
import { buildTallies, DEFAULT_METHOD, fitAggregator, METHODS, runEvaluate, runPosterior, SeatIndex, tieBreak, type TaskTallies } from '../src/main/engine'
import { readTraceFile } from '../src/main/io'
import { cleanCouncil, cleanCouncilConfig, generateCouncilArray, toJsonl } from '../src/main/sim'
import { emFigures } from './em-floor'
import { medianMs, type BenchSuite, type Figure } from './figure'

const ROOT = join(__dirname, '..')
const TSX = join(ROOT, 'node_modules/.bin/tsx')
const FIXED = { b: 0.7, kappa: 1, s: 32 }

/** The clean council (3 seats, 3 rounds) with K candidates. */
function council(tasks: number, seed: number, K: number): Trace[] {
  return generateCouncilArray({ ...cleanCouncilConfig({ tasks, seed }), groups: [{ name: `k${K}`, k: K }] })
}

function writeJsonl(file: string, traces: readonly Trace[]): string {
  writeFileSync(file, traces.map((t) => `${toJsonl(t)}\n`).join(''))
  return file
}

/** The physical floor: touch every count once (the sum is returned so the loop is not dead code). */
function bareLoop(tallies: readonly TaskTallies[]): number {
  let s = 0
  for (const t of tallies) {
    const c = t.counts
    for (let j = 0; j < c.length; j++) s += c[j]
  }
  return s
}

/** Spawns the CLI and resolves once it exits; rejects on a non-zero exit or a wrong line count. */
function cli(argv: string[], expectLines: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(TSX, ['src/main/cli/index.ts', ...argv], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
    let lines = 0
    let err = ''
    child.stdout.on('data', (b: Buffer) => {
      for (let i = 0; i < b.length; i++) if (b[i] === 10) lines++
    })
    child.stderr.on('data', (b: Buffer) => (err += b.toString()))
    child.on('error', reject)
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`arbiter ${argv[0]} exited ${code}: ${err}`))
      else if (lines !== expectLines) reject(new Error(`arbiter ${argv[0]}: ${lines} lines, expected ${expectLines}`))
      else resolve()
    })
  })
}

const fig = (name: string, value: number, target: number | null, reference: Figure['reference'], note?: string): Figure => ({
  suite: 'engine', name, value, unit: 'ms', target, better: 'lower', reference, note
})

async function posteriorFigures(dir: string, K: number, stages: boolean): Promise<Figure[]> {
  const traces = council(100_000, 1, K)
  const calTraces = council(1000, 2, K)
  const seats = new SeatIndex()
  const cal = calTraces.map((t) => buildTallies(t, seats))
  const tallies = traces.map((t) => buildTallies(t, seats))
  const p = new Float64Array(K)
  // Fit (fixed hyperparameters: reliabilities only) + posterior + tie-broken answer for every task.
  const inMemory = await medianMs(() => {
    const agg = fitAggregator('per-agent', cal, FIXED, 0)
    let answers = 0
    for (const t of tallies) answers += tieBreak(agg.posteriorAt(t, undefined, -1, p), t.K, t.task, 0)
    return answers
  })
  const bare = await medianMs(() => bareLoop(tallies))

  const file = writeJsonl(join(dir, `traces-k${K}.jsonl`), traces)
  const calFile = writeJsonl(join(dir, `cal-k${K}.jsonl`), calTraces)
  const argv = ['posterior', '--traces', file, '--calibration', calFile, '--method', 'per-agent', '--b', '0.7', '--kappa', '1', '--s', '32']
  // Seconds-long steps: the median of 3 with no warm-up run, as the cold first run is the one the median drops.
  const wall = await medianMs(() => cli(argv, traces.length), 3, 0)
  const parseFloor = await medianMs(() => readFileSync(file, 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as unknown), 3, 0)
  const what = `posterior 100k tasks K=${K}`
  const figures = [
    fig(`${what}, in-memory tallies`, inMemory, 300, { name: 'bare loop over the counts', value: bare }),
    fig(`${what}, CLI end to end (spawn, parse, output)`, wall, null, { name: 'JSON.parse of the file', value: parseFloor })
  ]
  // The CLI's stages in-process, to show where its wall time goes (the last read is the one decided
  // on). At K = 2 only: K = 4's are the same stages on the same number of lines (they read 3.1 and
  // 0.63 s against K = 2's 3.2 and 0.67 s), and the 12 s they took count against the whole bench's 15 minutes.
  if (!stages) return figures
  const files: Awaited<ReturnType<typeof readTraceFile>>[] = []
  const read = await medianMs(async () => files.splice(0, 2, await readTraceFile(file), await readTraceFile(calFile)), 3, 0)
  const [{ traces: parsed }, { traces: parsedCal }] = files
  const engine = await medianMs(() => runPosterior({ method: 'per-agent', traces: parsed, calibration: parsedCal, hyper: FIXED, seed: 0 }), 3, 0)
  return [
    ...figures,
    fig(`${what}, CLI stage: read + validate`, read, null, null),
    fig(`${what}, CLI stage: runPosterior (tallies, fit, records)`, engine, null, null)
  ]
}

async function cvFitFigure(): Promise<Figure> {
  const seats = new SeatIndex()
  const L = [...cleanCouncil({ tasks: 10_000, seed: 3 })].map((t) => buildTallies(t, seats))
  const fit = await medianMs(() => fitAggregator('per-agent', L, null, 0))
  const floor = await medianMs(() => {
    let s = 0
    for (let i = 0; i < 360; i++) s += bareLoop(L)
    return s
  })
  return fig('deployed CV fit, per-agent grid (360 points), 10k labeled tasks', fit, 2000, { name: '360 bare loops over the counts', value: floor })
}

/** The default method's posterior (fixed b, κ: reliabilities and the recalibration map only) and its deployed CV fit. */
async function defaultMethodFigures(): Promise<Figure[]> {
  const out: Figure[] = []
  for (const K of [2, 4]) {
    const seats = new SeatIndex()
    const cal = council(1000, 2, K).map((t) => buildTallies(t, seats))
    const tallies = council(100_000, 1, K).map((t) => buildTallies(t, seats))
    const p = new Float64Array(K)
    const inMemory = await medianMs(() => {
      const agg = fitAggregator(DEFAULT_METHOD, cal, { b: 0.7, kappa: 1 }, 0)
      let answers = 0
      for (const t of tallies) answers += tieBreak(agg.posteriorAt(t, undefined, -1, p), t.K, t.task, 0)
      return answers
    })
    const bare = await medianMs(() => bareLoop(tallies))
    out.push(fig(`posterior 100k tasks K=${K}, ${DEFAULT_METHOD} (the default), in-memory tallies`, inMemory, 300, { name: 'bare loop over the counts', value: bare }))
  }
  const seats = new SeatIndex()
  const L = [...cleanCouncil({ tasks: 10_000, seed: 3 })].map((t) => buildTallies(t, seats))
  const fit = await medianMs(() => fitAggregator(DEFAULT_METHOD, L, null, 0))
  const floor = await medianMs(() => {
    let s = 0
    for (let i = 0; i < 45; i++) s += bareLoop(L)
    return s
  })
  out.push(fig(`deployed CV fit, ${DEFAULT_METHOD} (45 points, recalibrated), 10k labeled tasks`, fit, 2000, { name: '45 bare loops over the counts', value: floor }))
  return out
}

async function evaluateFigure(dir: string): Promise<Figure> {
  const traces = [...cleanCouncil({ tasks: 4500, seed: 0 })]
  const file = writeJsonl(join(dir, 'clean-4500.jsonl'), traces)
  const wall = await medianMs(() => cli(['evaluate', '--traces', file, '--method', 'all'], METHODS.length), 3, 0)
  const engine = await medianMs(() => METHODS.map((method) => runEvaluate({ method, traces, folds: 5, seed: 0 })), 3, 0)
  return fig('evaluate --method all (nested CV 5×5), 4,500 tasks, CLI end to end', wall, 20_000, { name: 'engine alone (in-process)', value: engine })
}

export const engine: BenchSuite = {
  name: 'engine',
  summary: 'posterior 100k tasks (K = 2, 4; in memory and CLI), CV fit on 10k, nested-CV evaluate on 4,500, EM iterations vs their floor',
  async run() {
    const dir = mkdtempSync(join(tmpdir(), 'arbiter-bench-engine-'))
    try {
      // Each step's wall time on stderr, as the scale suite prints its sizes': where the suite's minutes go.
      const step = async <T>(name: string, run: () => Promise<T>): Promise<T> => {
        const t0 = performance.now()
        const got = await run()
        console.error(`engine ${name}: ${((performance.now() - t0) / 1000).toFixed(1)} s`)
        return got
      }
      return [
        ...(await step('posterior K=2', () => posteriorFigures(dir, 2, true))),
        ...(await step('posterior K=4', () => posteriorFigures(dir, 4, false))),
        await step('CV fit', cvFitFigure),
        ...(await step('default method', defaultMethodFigures)),
        await step('evaluate', () => evaluateFigure(dir)),
        ...(await step('EM', emFigures))
      ]
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }
}
