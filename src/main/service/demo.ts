/**
 * The demo database (`arbiter demo`, and the first launch of the desktop app and `serve`): the
 * seeded simulated council of `sim/presets.ts` (1,000 tasks in three groups, K = 2 / 3 / 4, five
 * seats with a persistent adversary and a sleeper, 3–4 rounds of debate), imported through the
 * ordinary import, with labels already given the way a team would have:
 * - a calibration batch of `random` labels, drawn uniformly (by a seeded hash of the task id) and
 *   answered with the simulator's gold — what Calibrate's blind draws produce;
 * - after a first fit, the top of the review queue resolved as `escalation` labels;
 * then fitted and decided again, so every screen has data. Gold stays hidden truth on every other
 * task. A settings key marks the database as a demo (the console's badge, and "start empty").
 */
import { randomUUID } from 'node:crypto'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import type { Shell } from '../../shared/api'
import { hashHex } from '../engine/hash'
import { defaultDbLocation } from '../paths'
import { demoCouncilConfig, generateCouncil, toJsonl, type CouncilConfig } from '../sim'
import { isServerLocation, openStore, type Actor, type Store } from '../store'
import { DEMO_KEY, updateEngineSettings } from './engine-settings'
import { fitAndDecide } from './fit/run-fit'
import { runImport } from './import'

export const DEMO_TASKS = 1000
/** Enough for the certificate with λ = auto: C1 and C2 each keep a D_loc of at least k = 128. */
export const DEMO_RANDOM_LABELS = 400
export const DEMO_ESCALATIONS = 40
export const DEMO_FILE = 'demo-council.trace.jsonl'
/** Who writes the demo, and the imports it records: any other import is the user's own data. */
export const DEMO_ACTOR = 'demo'
const DEMO_CALIBRATION = 'demo-calibration'
const DEMO_REVIEW = 'demo-review'
export const DEMO_IMPORTS: readonly string[] = [DEMO_FILE, DEMO_CALIBRATION, DEMO_REVIEW]

export interface DemoOptions {
  seed?: number
  nativeBinding?: string | null
  shell?: Shell
  /** Progress lines for the CLI. */
  log?: (line: string) => void
}

export interface DemoReport {
  tasks: number
  randomLabels: number
  escalations: number
  fitId: string
  acted: number
  deferred: number
}

/** How often the persistent adversary (A4) argues for a wrong answer. */
export const DEMO_ADVERSARY_DOSE = 0.8

/**
 * `demoCouncil`'s council with its adversary at a dose below 1, so that the defaults (the standing
 * vote, β = 0.20, the binomial bound, the social state) both act and leave a review queue. At the
 * preset's dose of 1 the adversary is wrong on every move, an oracle for a model that learns its
 * negative weight: every state's q̂ is 1 and nothing is left to review. At 0.8 its weight is still
 * negative (−0.96 at seed 0) and the default seed acts on 263 tasks and defers 297. (The outcome is
 * not monotone in the dose: the CV-chosen hyperparameters and the states move with it; other seeds
 * of `demo --seed N` may act on nothing.)
 */
export function demoConfig(seed: number): CouncilConfig {
  const cfg = demoCouncilConfig({ seed, tasks: DEMO_TASKS })
  return {
    ...cfg,
    seats: cfg.seats.map((s) => (s.behaviour === 'adversarial' ? { ...s, pWrong: DEMO_ADVERSARY_DOSE } : s))
  }
}

/** Builds the demo into an EMPTY store (the caller decides where it lives). */
export async function populateDemo(store: Store, opts: DemoOptions = {}): Promise<DemoReport> {
  const seed = opts.seed ?? 0
  const log = opts.log ?? (() => {})
  const actor: Actor = { reviewer: DEMO_ACTOR, sessionId: `demo-${randomUUID()}`, shell: opts.shell ?? 'cli' }
  const traces = [...generateCouncil(demoConfig(seed))]
  const dir = mkdtempSync(join(tmpdir(), 'arbiter-demo-'))
  try {
    const file = join(dir, DEMO_FILE)
    writeFileSync(file, traces.map((t) => `${toJsonl(t)}\n`).join(''))
    log(`importing ${traces.length} simulated tasks`)
    const imported = await runImport(
      store,
      { path: file, fileName: DEMO_FILE, displayName: DEMO_FILE, kind: 'traces', skipInvalid: false, goldAs: null, dialect: { columns: ['task', 'worker', 'label'], header: true }, goldName: null },
      actor
    )
    if (imported.status !== 'imported') throw new Error(`the demo council did not import: ${imported.errors.map((e) => e.message).join('; ')}`)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
  const gold = new Map(traces.map((t) => [t.task, t.gold as string]))
  // Labels are dated along the stream (a minute per task, ending now), so drift (docs/engine.md §9)
  // sees the sleeper's late turn in the most recent labels, as it would in a real deployment.
  const now = Date.now()
  const position = new Map(traces.map((t, i) => [t.task, i]))
  const at = new Date(now).toISOString()
  const dated = (taskId: string) => new Date(now - (traces.length - (position.get(taskId) ?? 0)) * 60_000).toISOString()

  // A calibration batch: a uniform draw without replacement, by a seeded hash of the task id.
  const drawn = traces
    .map((t) => t.task)
    .sort((a, b) => (hashHex(`${seed}:demo-calibrate:${a}`) < hashHex(`${seed}:demo-calibrate:${b}`) ? -1 : 1))
    .slice(0, DEMO_RANDOM_LABELS)
  const label = (taskId: string, source: 'random' | 'escalation', reviewer: string) => ({ taskId, label: gold.get(taskId) as string, source, reviewer, at: dated(taskId), note: null })
  await store.importLabels({ fileName: DEMO_CALIBRATION, sha256: hashHex(`${seed}:${DEMO_CALIBRATION}`), kind: 'labels', labels: drawn.map((id) => label(id, 'random', 'demo:calibrate')) }, actor)
  log(`labeled ${drawn.length} tasks drawn at random (calibration); fitting`)
  // The defaults otherwise (β = 0.20, the default bound and method): what a new user's own data gets.
  const settings = await updateEngineSettings(store, { seed }, actor)
  await fitAndDecide(store, { settings, redecide: null }, actor)

  // The top of the review queue (closest to acting first), resolved by a reviewer.
  const queue = await store.queuePage({
    filter: { decision: 'defer', group: null, seat: null, candidate: null, labelSource: null, spotCheck: null, search: null },
    sort: 'gap', direction: 'asc', offset: 0, limit: DEMO_ESCALATIONS
  })
  const escalated = queue.rows.map((r) => r.taskId)
  await store.importLabels({ fileName: DEMO_REVIEW, sha256: hashHex(`${seed}:${DEMO_REVIEW}`), kind: 'labels', labels: escalated.map((id) => label(id, 'escalation', 'demo:reviewer')) }, actor)
  log(`resolved ${escalated.length} deferred tasks from the queue; refitting`)
  const fit = await fitAndDecide(store, { settings, redecide: null }, actor)
  await store.setSettings({ [DEMO_KEY]: { createdAt: at, seed } }, actor)
  const acted = fit.decisionCount - (fit.deferredCount ?? fit.decisionCount)
  return { tasks: traces.length, randomLabels: drawn.length, escalations: escalated.length, fitId: fit.id, acted, deferred: fit.decisionCount - acted }
}

/**
 * A first launch: the database does not exist yet and the demo is wanted — by default only for
 * the default database (a path the user names starts empty). A PostgreSQL URL is never a first
 * launch: a server database is the team's, and the demo is only written there on request.
 */
export function isFirstLaunch(dbLocation: string, demoIfMissing: boolean | undefined): boolean {
  if (isServerLocation(dbLocation)) return false
  const wanted = demoIfMissing ?? resolve(dbLocation) === resolve(defaultDbLocation())
  return wanted && !existsSync(dbLocation)
}

/**
 * Creates the demo database at `dbLocation`, which must not exist yet. A PostgreSQL URL names a
 * database that exists by definition: the demo is written there only when it holds nothing yet
 * (no task, label, fit or setting), and a failed build is reported, not dropped (nothing on a
 * server is deleted by the app).
 */
export async function createDemoDatabase(dbLocation: string, opts: DemoOptions = {}): Promise<DemoReport> {
  const server = isServerLocation(dbLocation)
  if (!server && existsSync(dbLocation)) throw Object.assign(new Error(`${dbLocation} already exists; the demo is only written to a new database`), { code: 'bad_input' })
  const store = await openStore(dbLocation, opts.nativeBinding === null || opts.nativeBinding === undefined ? {} : { nativeBinding: opts.nativeBinding })
  try {
    if (server) {
      const c = await store.counts()
      if (c.tasks + c.labels + c.fits > 0 || Object.keys(await store.getSettings()).length > 0) {
        throw Object.assign(new Error(`${(await store.info()).dbLocation} is not empty; the demo is only written to an empty database`), { code: 'bad_input' })
      }
    }
    return await populateDemo(store, opts)
  } catch (e) {
    await store.close()
    // A half-built demo is worse than none: remove it so the next launch tries again.
    if (!server) for (const suffix of ['', '-wal', '-shm']) rmSync(`${dbLocation}${suffix}`, { force: true })
    throw e
  } finally {
    await store.close()
  }
}
