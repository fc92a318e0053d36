/**
 * BenchSuite `scale`: how Arbiter's cost grows with its work. At 10k, 100k and 1M tasks
 * (a 3-seat council; binary claims over 3 rounds and 4-way multiple choice over 4, ≈ 10 moves a
 * task; each size's trace file written once and imported by every backend), each size on each
 * backend in its own child process so its peak memory is its own:
 * import (the `arbiter import` path: validate the whole file, tallies, staged batches in a writer
 * thread, publish), 1,000 blind labels, fit + decide, re-decide under three other budgets (the
 * `decide` use case; the median of the three; each copies the fit's rows with new verdicts,
 * fit/redecide-copy.ts), and once more deciding every task again (the full path; below 1M only, as
 * "fit + decide" at 1M already decides every task: `ARBITER_BENCH_SCALE_FULL_DECIDE=1` adds it there),
 * each as the console's fit job runs it, then the queue's first page, a deep page, a task's detail and the Settings what-if
 * through the service's contract calls (median of 21 after a warm-up), then, at the run's largest
 * size, one more decide while the team suite's 8 no-pause reviewers resolve over loopback HTTP
 * (each resolve sent in the decide's window; its targets are at 1M).
 * `ARBITER_BENCH_SCALE` lists the sizes (default `10000,100000,1000000`); every size runs on each
 * backend `ARBITER_BENCH_SCALE_BACKENDS` lists (default `sqlite,postgres`), PostgreSQL on
 * a durable throwaway cluster (fsync, synchronous_commit, full_page_writes on) or `ARBITER_PG_URL`.
 */
import { spawnSync } from 'node:child_process'
import Database from 'better-sqlite3'
import { copyFileSync, createWriteStream, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { CallContext, EngineSettings } from '../src/shared/api'
import { hashHex } from '../src/main/engine/hash'
import { dispatch } from '../src/main/host/dispatch'
import { createService } from '../src/main/service'
import { updateEngineSettings } from '../src/main/service/engine-settings'
import type { FitJob } from '../src/main/service/jobs/protocol'
import { runJob } from '../src/main/service/jobs/runner'
import { runImport } from '../src/main/service/import'
import { generateCouncil, toJsonl, type CouncilConfig } from '../src/main/sim'
import { openStore, type Actor, type FitRecord } from '../src/main/store'
import { medianMs, type BenchSuite, type Figure } from './figure'
import { benchBackends, startBenchCluster, type Backend } from './postgres'
import { quantile, resolvesDuring } from './team'

const LABELS = 1000
const ACTOR: Actor = { reviewer: 'bench', sessionId: 'bench-scale', shell: 'cli' }
const DEFAULT_SIZES = [10_000, 100_000, 1_000_000]
/** The decide is timed three times, under these budgets, and its median reported; the last one leaves deferred tasks for the queue figures. */
const DECIDE_BETAS = [0.05, 0.1, 0.15]
/** The budgets the Settings what-if is timed at. */
const WHAT_IF_BETAS = [0.12, 0.25]
/** The what-if's target holds from this size (the issue's figure: 200k tasks). */
const WHAT_IF_TARGET_FROM = 200_000
/** The budget of the decide the team works through. */
const DURING_BETA = 0.2
/** At 1M tasks, a reviewer's resolve while a decide writes is measured over at least this many resolves. */
const DURING_MIN_RESOLVES = 500
/**
 * Below this size the full decide is timed on its own by default. At 1M it took 15 s on SQLite and
 * 44 s on PostgreSQL of a whole bench that must stay within 15 minutes, and "fit + decide"
 * already decides every task from the stored tallies there.
 */
const FULL_DECIDE_BELOW = 1_000_000

/** The optional steps of one size's child: the full decide, and the team during a decide. */
interface ChildSteps {
  fullDecide: boolean
  during: boolean
}

function council(tasks: number): CouncilConfig {
  return {
    tasks,
    seed: 11,
    rounds: 3,
    seats: [
      { id: 'A1', model: 'gemma-3-27b-it', reliability: 0.74 },
      { id: 'A2', model: 'phi-4', reliability: 0.68 },
      { id: 'A3', model: 'gpt-4.1-nano', reliability: 0.66 }
    ],
    groups: [
      { name: 'claims', labels: ['true', 'false'], rounds: 3 },
      { name: 'choice', k: 4, rounds: 4 }
    ],
    text: false
  }
}

/** Streams the council to a file (a 1M-task file is ≈ 1 GB: never held in memory). */
async function writeCouncil(path: string, tasks: number): Promise<void> {
  const out = createWriteStream(path)
  for (const t of generateCouncil(council(tasks))) {
    if (!out.write(`${toJsonl(t)}\n`)) await new Promise<void>((r) => out.once('drain', () => r()))
  }
  await new Promise<void>((r) => out.end(() => r()))
}

/** Where the labels come from: 1 in 5 of the council's first 25,000 tasks keeps its gold (generated again: the file is not read back). */
function goldOf(tasks: number): Map<string, string> {
  const gold = new Map<string, string>()
  let n = 0
  for (const t of generateCouncil(council(tasks))) {
    if (++n > 25_000) break
    if (n % 5 === 0 && typeof t.gold === 'string') gold.set(t.task, t.gold)
  }
  return gold
}

type ChildResult = {
  tasks: number
  moves: number
  importMs: number
  fitDecideMs: number
  decideMs: number
  /** Each of the three decides, in order. */
  decideRunsMs: number[]
  /** A decide that decides every task again (the full path: a decide copies its parent's rows when it can); null: not run. */
  fullDecideMs: number | null
  pageMs: number
  deepPageMs: number
  detailMs: number
  /** The Settings what-if of another absolute β under the current fit (its figures, docs/engine.md §8 Budget). */
  whatIfMs: number
  deferred: number
  maxRssMiB: number
  /** The team's resolves sent while a decide under another budget ran (sorted ms), its length, and whether it copied the fit's rows (else it decided every task again); null: not run. */
  during: { resolveMs: number[]; windowMs: number; copied: boolean } | null
}

const seconds = (t0: number) => performance.now() - t0
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]

/**
 * One size on one database (a SQLite file in `dir`, or a PostgreSQL URL), start to end, in this
 * process (the child), from the size's trace file (written once for every backend).
 */
async function child(tasks: number, dir: string, file: string, postgresUrl: string | null, steps: ChildSteps): Promise<ChildResult> {
  const dbLocation = postgresUrl ?? join(dir, 'scale.db')
  const gold = goldOf(tasks)

  let store = await openStore(dbLocation)
  const t0 = performance.now()
  const imported = await runImport(store, {
    path: file, fileName: file, displayName: 'scale.trace.jsonl', kind: 'traces', skipInvalid: false, goldAs: null,
    dialect: { columns: ['task', 'worker', 'label'], header: true }, goldName: null, target: { dbLocation, nativeBinding: null }
  }, ACTOR)
  const importMs = seconds(t0)
  if (imported.status !== 'imported' || imported.tasks !== tasks) throw new Error(`scale import wrote ${imported.tasks} of ${tasks} tasks (${imported.status})`)

  const drawn = [...gold.keys()].sort((a, b) => (hashHex(`scale:${a}`) < hashHex(`scale:${b}`) ? -1 : 1)).slice(0, LABELS)
  const at = new Date().toISOString()
  await store.importLabels({ fileName: 'scale-labels', sha256: hashHex(`scale-labels-${tasks}`), kind: 'labels', labels: drawn.map((taskId) => ({ taskId, label: gold.get(taskId) as string, source: 'random' as const, reviewer: 'bench', at, note: null })) }, ACTOR)
  const settings = await updateEngineSettings(store, { budget: { kind: 'absolute', beta: 0.1 }, autoRefit: false }, ACTOR)
  // As the console's fit job runs them (and the CLI's): in a job's worker thread, its heap limits,
  // its writer thread; timed until the job's result arrives. The next step starts once the worker
  // is gone: after its result its close still checkpoints (SQLite) or vacuums the new table
  // (PostgreSQL), and each figure is the job's own, not its predecessor's upkeep beside it.
  const job = { kind: 'fit' as const, dbLocation, nativeBinding: null, settings, actor: ACTOR }
  const timedJob = async (redecide: FitJob['redecide']): Promise<{ fit: FitRecord; ms: number }> => {
    let exited!: () => void
    const gone = new Promise<void>((r) => (exited = r))
    const started = performance.now()
    const done = await runJob({ ...job, redecide }, () => {}, () => exited())
    const ms = seconds(started)
    await gone
    return { fit: done, ms }
  }
  const first = await timedJob(null)
  const fit = first.fit
  const fitDecideMs = first.ms
  // The median of three decides, each under another budget (each a new fit with its own table).
  const decides: number[] = []
  for (const beta of DECIDE_BETAS) decides.push((await timedJob({ fitId: fit.id, budget: { kind: 'absolute', beta } })).ms)
  const decideMs = median(decides)
  // The full path as well (fit/redecide-copy.ts says when a decide may copy instead): what a decide
  // costs once labels or imports changed since the fit. Under the last budget, so the queue is the same.
  const fullDecideMs = steps.fullDecide ? (await timedJob({ fitId: fit.id, budget: { kind: 'absolute', beta: DECIDE_BETAS[DECIDE_BETAS.length - 1] }, copyRows: false })).ms : null
  await store.close()
  // Kept for profiling a size by hand (the database as fit and decide left it).
  // A job's worker checkpoints its decide's log as it closes, after its result arrived: the copy
  // waits for that checkpoint (and merges whatever log is left), or it could copy a torn file.
  const keep = process.env.ARBITER_BENCH_KEEP_DB
  if (keep && postgresUrl === null) {
    const db = new Database(dbLocation)
    db.pragma('busy_timeout = 60000')
    for (let tries = 0; ; tries++) {
      const [c] = db.pragma('wal_checkpoint(TRUNCATE)') as { busy: number; log: number; checkpointed: number }[]
      if (c.busy === 0) break
      if (tries === 600) throw new Error(`the database stays busy: ${JSON.stringify(c)}`)
      spawnSync('sleep', ['0.1'])
    }
    db.close()
    copyFileSync(dbLocation, keep)
  }

  store = await openStore(dbLocation)
  const service = await createService({ store, dbLocation, nativeBinding: null, shell: 'cli' })
  // Peak memory is the scale work's own, read before the team's 8 consoles open in this process.
  let scaleFigures: Pick<ChildResult, 'pageMs' | 'deepPageMs' | 'detailMs' | 'whatIfMs' | 'deferred' | 'maxRssMiB'>
  try {
    const ctx: CallContext = { ...service.context(), reviewer: 'bench', sessionId: 'bench-scale' }
    const call = async (method: string, args: unknown): Promise<unknown> => {
      const env = await dispatch(service.handlers, method, args, ctx)
      if (!env.ok) throw new Error(`${method}: ${env.error.message}`)
      return env.value
    }
    const first = (await call('queue.page', { limit: 50 })) as { rows: { taskId: string }[]; total: number }
    if (first.rows.length === 0) throw new Error('the scale queue is empty: nothing to page through')
    const deep = Math.min(50_000, Math.max(0, first.total - 50))
    const pageMs = await medianMs(() => call('queue.page', { limit: 50 }), 21, 2)
    const deepPageMs = await medianMs(() => call('queue.page', { limit: 50, offset: deep }), 21, 2)
    let i = 0
    const detailMs = await medianMs(() => call('task.detail', { taskId: first.rows[i++ % first.rows.length].taskId }), 21, 2)
    const settings = (await call('engine.getSettings', {})) as EngineSettings
    // Two budgets in turn, neither the fit's own, as a lead moving the β field does.
    const probe = (await call('fits.whatIf', { settings: { ...settings, budget: { kind: 'absolute', beta: WHAT_IF_BETAS[0] } } })) as { proposed: unknown; needsRefit: string[] }
    if (probe.proposed === null) throw new Error(`the what-if gives no proposal (needs a refit for: ${probe.needsRefit.join(', ') || 'nothing'})`)
    let b = 0
    const whatIfMs = await medianMs(() => call('fits.whatIf', { settings: { ...settings, budget: { kind: 'absolute', beta: WHAT_IF_BETAS[b++ % 2] } } }), 21, 2)
    scaleFigures = { pageMs, deepPageMs, detailMs, whatIfMs, deferred: first.total, maxRssMiB: process.resourceUsage().maxRSS / 1024 }
  } finally {
    await service.close()
  }
  // A decide under another budget while the team's 8 no-pause reviewers resolve: each
  // resolve sent in the decide's window. The team starts once the decide has begun (its first
  // progress), so the decide sees the fit's inputs unchanged and copies its rows, as it would when
  // a lead moves the budget between two labels.
  let during: ChildResult['during'] = null
  if (steps.during) {
    let copied = false
    const got = await resolvesDuring(dbLocation, async (go) => {
      let first = true
      await runJob({ ...job, redecide: { fitId: fit.id, budget: { kind: 'absolute', beta: DURING_BETA } } }, (p) => {
        if (first) copied = (p.message ?? '').includes("parent fit's")
        first = false
        go()
      })
    })
    during = { ...got, copied }
  }
  return { tasks, moves: imported.moves, importMs, fitDecideMs, decideMs, decideRunsMs: decides, fullDecideMs, ...scaleFigures, during }
}

/** Targets at 1M that differ by backend (a shared server is given twice the time to decide). */
const DECIDE_TARGET_S: Record<Backend, number> = { sqlite: 10, postgres: 20 }

function figures(backend: Backend, r: ChildResult, previous: ChildResult | null): Figure[] {
  const at = `${r.tasks >= 1_000_000 ? `${r.tasks / 1_000_000}M` : `${r.tasks / 1000}k`} tasks${backend === 'postgres' ? ', PostgreSQL' : ''}`
  const big = r.tasks >= 1_000_000
  // Growth against the previous size: near-linear work grows ×10 per ×10 tasks; paged reads not at all.
  const growth = (now: number, before: number | undefined) => (before === undefined ? undefined : `×${(now / before).toFixed(1)} vs ${previous?.tasks.toLocaleString('en-US')}`)
  const f = (name: string, value: number, unit: string, target: number | null, better: 'lower' | 'higher', note?: string): Figure =>
    ({ suite: 'scale', name: `${name} (${at})`, value, unit, target: big ? target : null, better, reference: null, note })
  const figs = [
    f('import', r.moves / (r.importMs / 1000), 'moves/s', 100_000, 'higher', `${(r.moves / 1e6).toFixed(2)}M moves in ${(r.importMs / 1000).toFixed(1)} s`),
    f('fit + decide', r.fitDecideMs / 1000, 's', null, 'lower', growth(r.fitDecideMs, previous?.fitDecideMs)),
    f('decide (stored tallies → decisions)', r.decideMs / 1000, 's', DECIDE_TARGET_S[backend], 'lower', growth(r.decideMs, previous?.decideMs)),
    ...(r.fullDecideMs === null ? [] : [f('decide, every task again (labels changed since the fit)', r.fullDecideMs / 1000, 's', null, 'lower', growth(r.fullDecideMs, previous?.fullDecideMs ?? undefined))]),
    f('queue page (first 50)', r.pageMs, 'ms', 50, 'lower', `${r.deferred.toLocaleString('en-US')} deferred`),
    f('queue page (deep offset)', r.deepPageMs, 'ms', 50, 'lower', growth(r.deepPageMs, previous?.deepPageMs)),
    f('task detail', r.detailMs, 'ms', 50, 'lower', growth(r.detailMs, previous?.detailMs)),
    { ...f('Settings what-if (another β)', r.whatIfMs, 'ms', null, 'lower', growth(r.whatIfMs, previous?.whatIfMs)), target: r.tasks >= WHAT_IF_TARGET_FROM ? 100 : null },
    f('peak memory (child RSS)', r.maxRssMiB, 'MiB', 2048, 'lower')
  ]
  const d = r.during
  if (d === null) return figs
  // The count the p95 stands on (required of the shared server; SQLite's decide is shorter).
  const count = f('resolves during that decide', d.resolveMs.length, 'resolves', backend === 'postgres' ? DURING_MIN_RESOLVES : null, 'higher',
    d.resolveMs.length === 0 ? `none in the decide's ${(d.windowMs / 1000).toFixed(1)} s: no p95` : undefined)
  if (d.resolveMs.length === 0) return [...figs, count]
  return [
    ...figs,
    // A target on the shared server; on one SQLite file the decide's chunks and the
    // team's labels take turns at its one writer, so it is printed beside, as what SQLite gives.
    f('resolve p95 during a decide under another budget (8 reviewers, no pause)', quantile(d.resolveMs, 0.95), 'ms', backend === 'postgres' ? 150 : null, 'lower',
      `${d.resolveMs.length} resolves in the decide's ${(d.windowMs / 1000).toFixed(1)} s (${d.copied ? 'a copy of the fit\'s rows' : 'every task decided again'}); p50 ${quantile(d.resolveMs, 0.5).toFixed(0)} ms`),
    count
  ]
}

export function scaleSizes(): number[] {
  const env = process.env.ARBITER_BENCH_SCALE
  if (env === undefined || env.trim() === '') return DEFAULT_SIZES
  return env.split(',').map((s) => {
    const n = Number(s.trim())
    if (!Number.isInteger(n) || n < 2000) throw new Error(`ARBITER_BENCH_SCALE: ${s} is not a task count ≥ 2000`)
    return n
  })
}

/** The backends a run measures: `ARBITER_BENCH_SCALE_BACKENDS`, default both. */
export const scaleBackends = (): Backend[] => benchBackends('ARBITER_BENCH_SCALE_BACKENDS', 'sqlite,postgres')

/** Runs one size on one database in a child process of its own (its peak memory is its own). */
function runChild(tasks: number, dir: string, file: string, postgresUrl: string | null, steps: ChildSteps, label: string): ChildResult {
  const t0 = performance.now()
  const args = [__filename, 'child', String(tasks), dir, file, JSON.stringify(steps), ...(postgresUrl === null ? [] : [postgresUrl])]
  const r = spawnSync(join(__dirname, '../node_modules/.bin/tsx'), args, { encoding: 'utf8', maxBuffer: 1 << 24, stdio: ['ignore', 'pipe', 'inherit'] })
  if (r.status !== 0) throw new Error(`scale child (${label}) failed with status ${r.status}`)
  const got = JSON.parse(r.stdout.trim().split('\n').at(-1) as string) as ChildResult
  console.error(`scale ${label}: ${((performance.now() - t0) / 1000).toFixed(1)} s (import ${(got.importMs / 1000).toFixed(1)} s, fit+decide ${(got.fitDecideMs / 1000).toFixed(1)} s, decide ${(got.decideMs / 1000).toFixed(1)} s, the median of ${got.decideRunsMs.map((x) => (x / 1000).toFixed(1)).join(', ')}${got.fullDecideMs === null ? '' : `; every task again ${(got.fullDecideMs / 1000).toFixed(1)} s`})`)
  return got
}

export const scale: BenchSuite = {
  name: 'scale',
  summary: 'import, fit, decide, queue page, task detail, Settings what-if and memory at 10k, 100k and 1M tasks, on SQLite and PostgreSQL',
  async run(): Promise<Figure[]> {
    const backends = scaleBackends()
    const out = new Map<Backend, Figure[]>(backends.map((b) => [b, []]))
    const previous = new Map<Backend, ChildResult>()
    // PostgreSQL durable throughout (fsync, synchronous_commit, full_page_writes on): what a team's server pays.
    const cluster = backends.includes('postgres') ? await startBenchCluster('scale') : null
    const sizes = scaleSizes()
    const fullEverywhere = process.env.ARBITER_BENCH_SCALE_FULL_DECIDE === '1'
    try {
      for (const tasks of sizes) {
        const steps: ChildSteps = { fullDecide: fullEverywhere || tasks < FULL_DECIDE_BELOW, during: tasks === Math.max(...sizes) }
        const dir = mkdtempSync(join(tmpdir(), 'arbiter-bench-scale-'))
        try {
          // One trace file per size, imported by every backend's child (a 1M-task file took ≈ 20 s to write).
          const file = join(dir, 'scale.trace.jsonl')
          const t0 = performance.now()
          await writeCouncil(file, tasks)
          console.error(`scale ${tasks}: trace file written in ${((performance.now() - t0) / 1000).toFixed(1)} s`)
          for (const backend of backends) {
            const postgresUrl = cluster === null || backend === 'sqlite' ? null : await cluster.createDatabase()
            // Its own folder, removed after it: one database at a time beside the trace file.
            const own = mkdtempSync(join(dir, `${backend}-`))
            try {
              const got = runChild(tasks, own, file, postgresUrl, steps, `${tasks} ${backend}`)
              out.get(backend)?.push(...figures(backend, got, previous.get(backend) ?? null))
              previous.set(backend, got)
            } finally {
              rmSync(own, { recursive: true, force: true })
            }
          }
        } finally {
          rmSync(dir, { recursive: true, force: true })
        }
      }
    } finally {
      await cluster?.stop()
    }
    return backends.flatMap((b) => out.get(b) ?? [])
  }
}

if (require.main === module && process.argv[2] === 'child') {
  child(Number(process.argv[3]), process.argv[4], process.argv[5], process.argv[7] ?? null, JSON.parse(process.argv[6]) as ChildSteps).then(
    (r) => process.stdout.write(`${JSON.stringify(r)}\n`),
    (e: unknown) => {
      console.error(e)
      process.exitCode = 1
    }
  )
}
