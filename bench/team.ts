/**
 * BenchSuite `team`: a team of 8 reviewers clearing one 100,000-task queue on a shared
 * PostgreSQL database, and the same on one SQLite file for reference.
 *
 * The database: a 3-seat council (K = 2, 3 rounds; the `ui` suite's), imported through the real
 * import use case (`arbiter import`'s path), 1,000 blind labels, fit + decide under a tight budget
 * so almost every task waits in the deferred queue. PostgreSQL is a throwaway cluster started as
 * the tests start theirs (test/helpers/pg-cluster.ts), but with fsync and synchronous commit ON:
 * a resolve is measured with the commit a real server pays. `ARBITER_PG_URL` uses that server.
 *
 * The team: 8 consoles, each its own service, store connection pool, change feed and loopback web
 * host — 8 `serve`s on one shared database location — and each reviewer its own actor and session. Every
 * call goes over loopback HTTP as the browser's would (servers and clients share this process).
 * A reviewer pages the queue (first 50, deferred, sorted by gap), picks one of the first 8 open
 * rows not reserved by someone else, reserves it (opening the review screen) and resolves it with
 * the version it read; held by another → next page; a 409 conflict (someone resolved it since the
 * page was read) → release and go on. For `ARBITER_BENCH_TEAM_SECONDS` (default 20).
 *
 * Figures: p50/p95/p99 of the queue page and of the resolve (targets p95 ≤ 100 ms and ≤ 50 ms on
 * PostgreSQL), resolves/s, conflicts. Checked, or the suite fails: every call answered 200 or 409,
 * every acknowledged label is in the database exactly once, live, under its reviewer and session,
 * the label count grew by exactly the acknowledged ones, and no task got two labels.
 * `ARBITER_BENCH_TEAM_BACKENDS` (default `postgres,sqlite`), `ARBITER_BENCH_TEAM_TASKS` (100000).
 */
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import type { QueueRow, ReserveResult, ResolveResult } from '../src/shared/api'
import { DEFAULT_RENDERER_DIR } from '../src/main/console-server'
import { hashHex } from '../src/main/engine/hash'
import type { WebHost } from '../src/main/host/web'
import { createService, type Service } from '../src/main/service'
import { updateEngineSettings } from '../src/main/service/engine-settings'
import { fitAndDecide } from '../src/main/service/fit/run-fit'
import { runImport } from '../src/main/service/import'
import { cleanCouncil, createRng, toJsonl } from '../src/main/sim'
import { openStore, type Actor, type Store, type TaskFilter } from '../src/main/store'
import type { PgCluster } from '../test/helpers/pg-cluster'
import { sessionHost, webClient, type CallOutcome } from '../test/helpers/web-client'
import type { BenchSuite, Figure } from './figure'
import { adminQuery, benchBackends, setDurability, startBenchCluster, type Backend } from './postgres'

const REVIEWERS = 8
const LABELS = 1000
const PAGE = { filter: { decision: 'defer' }, sort: 'gap', direction: 'asc', limit: 50 } as const
/** How far down the page a reviewer looks: a few rows, so that reviewers sometimes collide. */
const PICK_FROM = 8
const ACTOR: Actor = { reviewer: 'bench', sessionId: 'bench-team', shell: 'cli' }
const TARGET_PAGE_MS = 100
const TARGET_RESOLVE_MS = 50

type Kind = 'page' | 'reserve' | 'resolve'

function envInt(name: string, fallback: number, min: number): number {
  const raw = process.env[name]
  if (raw === undefined || raw.trim() === '') return fallback
  const n = Number(raw)
  if (!Number.isInteger(n) || n < min) throw new Error(`${name}: ${raw} is not an integer ≥ ${min}`)
  return n
}

export function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return NaN
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]
}

/** The trace file (streamed: never the whole council in memory as text); returns each task's gold. */
async function writeTraces(path: string, tasks: number): Promise<Map<string, string>> {
  const out = createWriteStream(path)
  const gold = new Map<string, string>()
  for (const t of cleanCouncil({ tasks, seed: 9 })) {
    if (typeof t.gold === 'string') gold.set(t.task, t.gold)
    if (!out.write(`${toJsonl(t)}\n`)) await new Promise<void>((r) => out.once('drain', () => r()))
  }
  await new Promise<void>((r) => out.end(() => r()))
  return gold
}

/** Import, blind labels, fit + decide: the queue the team works. Returns the phases' seconds. */
async function buildDatabase(dbLocation: string, file: string, gold: Map<string, string>, tasks: number): Promise<{ importS: number; fitS: number }> {
  const store = await openStore(dbLocation)
  try {
    let t0 = performance.now()
    const imported = await runImport(store, {
      path: file, fileName: file, displayName: 'team.trace.jsonl', kind: 'traces', skipInvalid: false, goldAs: null,
      dialect: { columns: ['task', 'worker', 'label'], header: true }, goldName: null, target: { dbLocation, nativeBinding: null }
    }, ACTOR)
    if (imported.status !== 'imported' || imported.tasks !== tasks) throw new Error(`team import wrote ${imported.tasks} of ${tasks} tasks (${imported.status})`)
    const importS = (performance.now() - t0) / 1000
    const drawn = [...gold.keys()].sort((a, b) => (hashHex(`team:${a}`) < hashHex(`team:${b}`) ? -1 : 1)).slice(0, LABELS)
    const at = new Date().toISOString()
    await store.importLabels({ fileName: 'team-labels', sha256: hashHex('team-labels'), kind: 'labels', labels: drawn.map((taskId) => ({ taskId, label: gold.get(taskId) as string, source: 'random' as const, reviewer: 'bench', at, note: null })) }, ACTOR)
    // A tight budget (almost every task deferred) and no background refit: every write is a reviewer's.
    const settings = await updateEngineSettings(store, { budget: { kind: 'absolute', beta: 0.08 }, autoRefit: false }, ACTOR)
    t0 = performance.now()
    await fitAndDecide(store, { settings, redecide: null }, ACTOR)
    return { importS, fitS: (performance.now() - t0) / 1000 }
  } finally {
    await store.close()
  }
}

interface Ack { taskId: string; labelId: string; reviewer: string; sessionId: string }
interface Run {
  /** The machine's 1-minute load average when the team started (the machine is shared). */
  load: number
  latency: Record<Kind, number[]>
  /** When each resolve was sent (performance.now()), in the order of `latency.resolve`. */
  resolveAt: number[]
  acks: Ack[]
  conflicts: number
  heldByOther: number
  emptyPicks: number
  /** Calls the store gave up on after its serialization-failure retries (a 500 the reviewer sees). */
  busy: string[]
  /** Anything else but 200 and 409: the suite fails. */
  errors: string[]
  seconds: number
}

/** connection.ts's message when a SERIALIZABLE write kept failing after all its retries. */
const BUSY = /stayed busy with concurrent writers/

/** One reviewer's loop while `going()` (see the top of the file). */
async function reviewer(host: WebHost, i: number, going: () => boolean, run: Run): Promise<void> {
  const web = webClient(host)
  // One seeded generator per reviewer: the picks replay, the interleaving does not.
  const random = createRng(`team-${i}`)
  const tried = new Set<string>()
  const who = { reviewer: `reviewer-${i}`, sessionId: `team-session-${i}` }
  const timed = async <T>(kind: Kind, method: string, args: unknown): Promise<CallOutcome<T>> => {
    if (kind === 'resolve') run.resolveAt.push(performance.now())
    const out = await web.call<T>(method, args)
    run.latency[kind].push(out.ms)
    if (out.status !== 200 && out.status !== 409) (BUSY.test(out.error?.message ?? '') ? run.busy : run.errors).push(`${method} → ${out.status}: ${out.error?.message}`)
    return out
  }
  try {
    while (going() && run.errors.length === 0) {
      const page = await timed<{ rows: QueueRow[] }>('page', 'queue.page', PAGE)
      const rows = page.value?.rows ?? []
      if (rows.length === 0) return // the queue is done
      const open = rows.filter((r) => r.label === null && !tried.has(r.taskId) && (r.reservedBy === null || r.reservedBy.sessionId === who.sessionId)).slice(0, PICK_FROM)
      if (open.length === 0) {
        run.emptyPicks++
        continue
      }
      const row = random.pick(open)
      tried.add(row.taskId)
      const reserve = await timed<ReserveResult>('reserve', 'task.reserve', { taskId: row.taskId })
      if (reserve.value?.heldBy != null) {
        run.heldByOther++
        continue
      }
      const resolve = await timed<ResolveResult>('resolve', 'labels.resolve', { taskId: row.taskId, label: random.pick(row.candidates), expectedVersion: row.version })
      if (resolve.ok && resolve.value !== null) run.acks.push({ taskId: row.taskId, labelId: resolve.value.labelId, ...who })
      else {
        // Someone resolved it since the page was read (409), or the store gave up (counted above).
        if (resolve.status === 409) run.conflicts++
        await web.call('task.release', { taskId: row.taskId })
      }
    }
  } finally {
    web.close()
  }
}

/** Every acknowledged label exactly once, live, as its reviewer's; nothing else written. Throws otherwise. */
async function checkLabels(store: Store, run: Run, before: { labels: number; labeledTasks: number }): Promise<void> {
  const after = await store.counts()
  const problems: string[] = []
  if (after.labels - before.labels !== run.acks.length) problems.push(`labels grew by ${after.labels - before.labels}, ${run.acks.length} acknowledged`)
  if (after.labeledTasks - before.labeledTasks !== run.acks.length) problems.push(`labeled tasks grew by ${after.labeledTasks - before.labeledTasks}, ${run.acks.length} acknowledged`)
  // Every escalation label in the database (the reviewers' only kind) against the acknowledgements.
  const filter: TaskFilter = { decision: null, group: null, seat: null, candidate: null, labelSource: 'escalation', spotCheck: null, search: null }
  const stored = new Map<string, { taskId: string; reviewer: string; sessionId: string }>()
  const perTask = new Map<string, number>()
  for (let after: string | null = null; ; ) {
    const page = await store.filteredLabels(filter, after, 5000)
    for (const l of page.rows) {
      if (stored.has(l.id)) problems.push(`label ${l.id} listed twice`)
      stored.set(l.id, { taskId: l.taskId, reviewer: l.reviewer, sessionId: l.sessionId })
      perTask.set(l.taskId, (perTask.get(l.taskId) ?? 0) + 1)
    }
    if (page.lastTaskId === null) break
    after = page.lastTaskId
  }
  for (const [taskId, n] of perTask) if (n > 1) problems.push(`task ${taskId} has ${n} live labels`)
  if (stored.size !== run.acks.length) problems.push(`${stored.size} escalation labels stored, ${run.acks.length} acknowledged`)
  for (const a of run.acks) {
    const s = stored.get(a.labelId)
    if (s === undefined) problems.push(`acknowledged label ${a.labelId} (${a.taskId}) is missing`)
    else if (s.taskId !== a.taskId || s.reviewer !== a.reviewer || s.sessionId !== a.sessionId) problems.push(`label ${a.labelId} is stored as ${JSON.stringify(s)}, acknowledged as ${JSON.stringify(a)}`)
  }
  if (problems.length > 0) throw new Error(`team: ${problems.length} label problem(s): ${problems.slice(0, 5).join('; ')}`)
}

/** The team's 8 consoles on one database location, ready to work; `check` is a store of the bench's own. */
async function openTeam(dbLocation: string): Promise<{ check: Store; hosts: WebHost[]; close(): Promise<void> }> {
  const services: Service[] = []
  const hosts: WebHost[] = []
  const check = await openStore(dbLocation)
  const close = async (): Promise<void> => {
    for (const h of hosts) await h.close()
    for (const s of services) await s.close()
    await check.close()
  }
  try {
    for (let i = 0; i < REVIEWERS; i++) {
      const service = await createService({ store: await openStore(dbLocation), dbLocation, nativeBinding: null, shell: 'web' })
      services.push(service)
      hosts.push(await sessionHost(service, DEFAULT_RENDERER_DIR, `reviewer-${i}`, `team-session-${i}`))
    }
    return { check, hosts, close }
  } catch (e) {
    await close()
    throw e
  }
}

/** The team at work while `going()`, every label checked afterwards; the run and the queue before it. */
async function teamWhile(team: { check: Store; hosts: WebHost[] }, going: () => boolean): Promise<Run & { deferred: number }> {
  const before = await team.check.counts()
  const run: Run = { load: loadavg()[0], latency: { page: [], reserve: [], resolve: [] }, resolveAt: [], acks: [], conflicts: 0, heldByOther: 0, emptyPicks: 0, busy: [], errors: [], seconds: 0 }
  const t0 = performance.now()
  await Promise.all(team.hosts.map((h, i) => reviewer(h, i, going, run)))
  run.seconds = (performance.now() - t0) / 1000
  if (run.errors.length > 0) throw new Error(`team: ${run.errors.length} failed call(s): ${run.errors.slice(0, 3).join('; ')}`)
  await checkLabels(team.check, run, before)
  return { ...run, deferred: before.deferred }
}

/** The team at work on one database (already built) for `seconds`. */
async function runTeam(dbLocation: string, seconds: number): Promise<Run & { deferred: number }> {
  const team = await openTeam(dbLocation)
  try {
    const deadline = Date.now() + seconds * 1000
    return await teamWhile(team, () => Date.now() < deadline)
  } finally {
    await team.close()
  }
}

/** The resolves sent during a piece of work (the scale suite's decide), and the work's length. */
export interface ResolvesDuring {
  /** Latency of every resolve sent between the work's start and its end, sorted. */
  resolveMs: number[]
  windowMs: number
}

/**
 * The 8 no-pause reviewers at work on `dbLocation` while `work` runs: the team opens first, starts when
 * `work` calls `go` (or when it ends), and stops when it ends; every label is checked as in the
 * team suite. For the scale suite: a reviewer's resolve while a decide writes.
 */
export async function resolvesDuring(dbLocation: string, work: (go: () => void) => Promise<void>): Promise<ResolvesDuring> {
  const team = await openTeam(dbLocation)
  try {
    let go!: () => void
    const started = new Promise<void>((r) => (go = r))
    let working = true
    const teamDone = started.then(() => teamWhile(team, () => working))
    // A failing team must not leave the work unawaited (and the other way round).
    teamDone.catch(() => undefined)
    const t0 = performance.now()
    try {
      await work(go)
    } finally {
      working = false
      go()
    }
    const t1 = performance.now()
    const run = await teamDone
    const inWindow = run.latency.resolve.filter((_, i) => run.resolveAt[i] >= t0 && run.resolveAt[i] <= t1)
    return { resolveMs: inWindow.sort((a, b) => a - b), windowMs: t1 - t0 }
  } finally {
    await team.close()
  }
}


function figures(backend: Backend, tasks: number, r: Run & { deferred: number }, build: { importS: number; fitS: number }): Figure[] {
  const name = backend === 'postgres' ? 'PostgreSQL' : 'SQLite'
  const pg = backend === 'postgres'
  const out: Figure[] = []
  const f = (what: string, value: number, unit: string, target: number | null, note?: string, better: 'lower' | 'higher' = 'lower'): void => {
    out.push({ suite: 'team', name: `${name}: ${what}`, value, unit, target, better, reference: null, note })
  }
  for (const kind of ['page', 'resolve', 'reserve'] as const) {
    const sorted = [...r.latency[kind]].sort((a, b) => a - b)
    const label = kind === 'page' ? 'queue page (first 50 by gap)' : kind === 'resolve' ? 'resolve' : 'reserve'
    const target = !pg ? null : kind === 'page' ? TARGET_PAGE_MS : kind === 'resolve' ? TARGET_RESOLVE_MS : null
    f(`${label} p50`, quantile(sorted, 0.5), 'ms', null, `${sorted.length} calls`)
    f(`${label} p95`, quantile(sorted, 0.95), 'ms', target)
    f(`${label} p99`, quantile(sorted, 0.99), 'ms', null)
  }
  const contested = `${r.conflicts} conflicts (409: resolved by another since the page was read), ${r.heldByOther} held by another at reserve; load average ${r.load.toFixed(1)} at the start`
  f(`resolves acknowledged (${REVIEWERS} reviewers, ${r.seconds.toFixed(0)} s)`, r.acks.length / r.seconds, 'labels/s', null, contested, 'higher')
  // Not a lost label (nothing was acknowledged or written) but an error the reviewer sees: target none.
  out.push({ suite: 'team', name: `${name}: calls refused as busy (serialization retries exhausted)`, value: r.busy.length, unit: 'calls', target: 0, better: 'lower', reference: null, note: r.busy[0] })
  f(`database build (${tasks.toLocaleString('en-US')} tasks: import, fit + decide; ${r.deferred.toLocaleString('en-US')} deferred)`, build.importS + build.fitS, 's', null, `import ${build.importS.toFixed(1)} s, fit + decide ${build.fitS.toFixed(1)} s`)
  return out
}

export const team: BenchSuite = {
  name: 'team',
  summary: '8 reviewers paging and resolving one 100k-task queue over loopback HTTP on PostgreSQL (and SQLite): p50/p95/p99, conflicts, no label lost',
  async run(): Promise<Figure[]> {
    const tasks = envInt('ARBITER_BENCH_TEAM_TASKS', 100_000, 2000)
    const seconds = envInt('ARBITER_BENCH_TEAM_SECONDS', 20, 1)
    const chosen = benchBackends('ARBITER_BENCH_TEAM_BACKENDS', 'postgres,sqlite')
    const dir = mkdtempSync(join(tmpdir(), 'arbiter-bench-team-'))
    const ownCluster = (process.env.ARBITER_PG_URL ?? '') === ''
    let cluster: PgCluster | null = null
    const out: Figure[] = []
    try {
      if (chosen.includes('postgres')) cluster = await startBenchCluster('team')
      const file = join(dir, 'team.trace.jsonl')
      const gold = await writeTraces(file, tasks)
      for (const backend of chosen) {
        const server = backend === 'postgres' ? (cluster as PgCluster) : null
        const dbLocation = server === null ? join(dir, 'team.db') : await server.createDatabase()
        const t0 = performance.now()
        if (server !== null && ownCluster) await setDurability(server.adminUrl, false)
        const build = await buildDatabase(dbLocation, file, gold, tasks)
        if (server !== null) {
          // The planner statistics autovacuum gathers within a minute of a bulk load: the steady
          // state, and the same plans in every run (the store never runs ANALYZE itself).
          await adminQuery(dbLocation, 'ANALYZE')
          if (ownCluster) await setDurability(server.adminUrl, true)
        }
        const r = await runTeam(dbLocation, seconds)
        console.error(
          `team ${backend}: build ${(build.importS + build.fitS).toFixed(1)} s (import ${build.importS.toFixed(1)} s, fit + decide ${build.fitS.toFixed(1)} s), ` +
            `${r.acks.length} labels by ${REVIEWERS} reviewers in ${r.seconds.toFixed(1)} s, ${r.conflicts} conflicts, ${r.heldByOther} held by another; ` +
            `every label checked; ${((performance.now() - t0) / 1000).toFixed(1)} s`
        )
        out.push(...figures(backend, tasks, r, build))
      }
    } finally {
      await cluster?.stop()
      rmSync(dir, { recursive: true, force: true })
    }
    return out
  }
}
