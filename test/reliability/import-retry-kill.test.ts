/**
 * A killed import never blocks its retry. An import child (crash-child.ts,
 * runImport as `arbiter import` runs it) is SIGKILLed at a seeded moment — while it validates or
 * checks (before staging), right after its first staged batch (during staging), as it publishes,
 * or anywhere in its run — and at once a second child imports the same file, opening the store
 * with its DEFAULT options: the retry must import the whole file (or find it imported, when the
 * kill came after the killed run's publish committed). What the kill left is read from the
 * database before the retry starts, so the figures say where each kill really landed. Both
 * backends, side by side (one per core); SQLite also leaves no lock file behind and passes the
 * crash checks after every retry. Replay a schedule with CRASH_SEED=<seed>.
 */
import Database from 'better-sqlite3'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openStore } from '../../src/main/store'
import { POSTGRES, usePostgres } from '../helpers/postgres'
import { describeWith } from '../helpers/prerequisites'
import { importLockFiles, publishedWithPrefix, verifyDatabase } from './crash-checks'
import { Child, prng, writeTraceFile } from './crash-support'
import { reportSuite } from './report'

const SEED = process.env.CRASH_SEED === undefined ? 20261201 : Number(process.env.CRASH_SEED)
/** Kills per backend (each followed by its retry). */
const KILLS = 20
/** Two staged batches: 2,000 tasks, then 200 written by the publish's flush. */
const TASKS = 2200
/**
 * Where a kill is aimed: a phase line of the child, then a seeded delay within that window (ms).
 * `ready` spreads over the whole run (1.3 × an uninterrupted import, measured first).
 */
const AIMS = [
  { after: 'ready', windowMs: null },
  { after: 'phase checking', windowMs: 40 },
  { after: 'phase writing', windowMs: 60 },
  { after: 'phase publishing', windowMs: 20 }
] as const

/** What a kill left, read from the database before the retry. */
type Left = { staged: number; stagedTasks: number; published: number }

interface Backend {
  name: 'sqlite' | 'postgres'
  dbLocation: string
  left(prefix: string): Promise<Left>
  /** Imports not published, after the retry (must be none: the retry swept the dead one). */
  unpublished(): Promise<number>
  /** After each retry: no import lock is left (SQLite: no lock file; PostgreSQL: no advisory lock). */
  check(): Promise<void>
  /** At the end: the database passes the crash checks (SQLite: crash-checks.ts). */
  verify(): Promise<void>
  close(): Promise<void>
}

let dir: string
const cluster = usePostgres()

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'arbiter-retry-'))
})

afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** A fresh, migrated database on either backend, opened as the app opens it. */
async function fresh(dbLocation: string): Promise<void> {
  const store = await openStore(dbLocation)
  await store.close()
}

async function sqliteBackend(): Promise<Backend> {
  const dbLocation = join(dir, 'retry.db')
  await fresh(dbLocation)
  const count = (sql: string, ...params: unknown[]): number => {
    const db = new Database(dbLocation, { readonly: true, fileMustExist: true })
    try {
      return db.prepare(sql).pluck().get(...params) as number
    } finally {
      db.close()
    }
  }
  return {
    name: 'sqlite',
    dbLocation,
    left: async (prefix) => ({
      staged: count(`SELECT count(*) FROM imports WHERE state = 'staged'`),
      stagedTasks: count(`SELECT count(*) FROM tasks t JOIN imports i ON i.id = t.import_id WHERE i.state = 'staged'`),
      published: publishedWithPrefix(dbLocation, prefix)
    }),
    unpublished: async () => count(`SELECT count(*) FROM imports WHERE state <> 'published'`),
    check: async () => expect(importLockFiles(dbLocation)).toEqual([]),
    verify: async () => {
      await verifyDatabase(dbLocation, [])
    },
    close: async () => undefined
  }
}

async function postgresBackend(): Promise<Backend> {
  const dbLocation = await cluster().createDatabase()
  await fresh(dbLocation)
  const client = new pg.Client({ connectionString: dbLocation })
  client.on('error', () => undefined) // the cluster stops after the suite; a query would report it
  await client.connect()
  const count = async (sql: string, ...params: unknown[]): Promise<number> => Number((await client.query(sql, params)).rows[0].n)
  return {
    name: 'postgres',
    dbLocation,
    left: async (prefix) => ({
      staged: await count(`SELECT count(*) AS n FROM imports WHERE state = 'staged'`),
      stagedTasks: await count(`SELECT count(*) AS n FROM tasks t JOIN imports i ON i.id = t.import_id WHERE i.state = 'staged'`),
      published: await count(
        `SELECT count(*) AS n FROM tasks t JOIN imports i ON i.id = t.import_id WHERE i.state = 'published' AND t.id >= $1 AND t.id < $2`,
        `${prefix}-`, `${prefix}.`
      )
    }),
    unpublished: () => count(`SELECT count(*) AS n FROM imports WHERE state <> 'published'`),
    check: async () => {
      // No session holds an import's lock once both children are gone.
      expect(await count(`SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`)).toBe(0)
    },
    verify: async () => {
      const store = await openStore(dbLocation)
      try {
        expect(await store.integrityCheck()).toEqual({ ok: true, messages: [] })
      } finally {
        await store.close()
      }
    },
    close: () => client.end()
  }
}

/** Where the kill landed, from what it left (and whether the child had begun to publish). */
function landing(left: Left, publishing: boolean): string {
  if (left.published === TASKS) return 'after publish committed'
  if (publishing) return 'during publish'
  if (left.stagedTasks > 0) return 'during staging'
  if (left.staged > 0) return 'staging begun, no batch yet'
  return 'before staging'
}

type LoopStats = { kills: number; retries: number; landed: Record<string, number>; retryMs: number[] }

/**
 * KILLS rounds of: a child imports a new file and is killed at its seeded moment; at once the next
 * child — started during the round, loaded and waiting — retries that file (it must import it
 * whole), then goes on to be the next round's victim (crash-child.ts, import-chain).
 */
async function killAndRetry(b: Backend, rand: () => number): Promise<LoopStats> {
  const files: { prefix: string; path: string }[] = []
  const file = (i: number) => {
    if (files[i] === undefined) {
      const prefix = `${b.name}-r${i}`
      files[i] = { prefix, path: join(dir, `${prefix}.trace.jsonl`) }
      writeTraceFile(files[i].path, prefix, TASKS)
    }
    return files[i]
  }
  // Child i retries file i − 1, then imports file i (the one it may be killed in).
  const chain = (i: number) => Child.start(['import-chain', b.dbLocation, i === 0 ? '-' : file(i - 1).path, file(i).path], join(dir, `${b.name}-${i}.log`))
  const stats: LoopStats = { kills: 0, retries: 0, landed: {}, retryMs: [] }

  // File 0 imported without a kill first: how long a whole run takes (the `ready` aim spreads over it).
  let child = chain(0)
  await child.line('loaded')
  child.send('go')
  await child.line('between')
  const t0 = performance.now()
  child.send('go')
  expect((await child.exited).code, child.errors).toBe(0)
  const fullMs = performance.now() - t0
  expect(child.record()).toContain(`done imported ${TASKS}`)
  // Child 1 retries file 0 (already imported: a no-op), then is round 1's victim.
  child = chain(1)
  await child.line('loaded')
  child.send('go')
  await child.line('between')
  // Two children ahead: each loads while the rounds before it run.
  const ahead = [chain(2), chain(3)]

  // Bounded: a machine so fast that runs end before their kill fails the count below instead of looping.
  for (let i = 1; stats.kills < KILLS && i <= 2 * KILLS; i++) {
    const f = file(i)
    const aim = AIMS[i % AIMS.length]
    const delay = rand() * (aim.windowMs ?? 1.3 * fullMs)
    const retry = ahead.shift() as Child
    ahead.push(chain(i + 3))
    child.send('go')
    let timer: NodeJS.Timeout | undefined
    // A child that ends before its aim is reached is simply not killed (checked like any other run).
    child.line(aim.after).then(
      () => (timer = setTimeout(() => child.kill(), delay)),
      () => undefined
    )
    const exit = await child.exited
    clearTimeout(timer)
    const killed = exit.signal === 'SIGKILL'
    if (!killed) expect(exit.code, child.errors).toBe(0)
    const left = await b.left(f.prefix)
    const where = killed ? `kills ${landing(left, child.record().includes('phase publishing'))}` : 'runs that ended before their kill'
    stats.landed[where] = (stats.landed[where] ?? 0) + 1
    if (killed) stats.kills++

    // At once: the retry, with the store's default options, imports the whole file.
    await retry.line('loaded')
    const r0 = performance.now()
    retry.send('go')
    const done = await retry.line('retry done ').catch((e: unknown) => `${String(e)}: ${retry.errors}`)
    stats.retryMs.push(performance.now() - r0)
    stats.retries++
    const context = `${b.name}: the retry of round ${i} (${where}; CRASH_SEED=${SEED})`
    expect(done, context).toBe(left.published === TASKS ? 'retry done already-imported 0' : `retry done imported ${TASKS}`)
    await retry.line('between')
    expect((await b.left(f.prefix)).published, context).toBe(TASKS)
    expect(await b.unpublished(), context).toBe(0)
    await b.check()
    child = retry
  }
  child.endInput()
  expect((await child.exited).code, child.errors).toBe(0)
  // The children started ahead never touched the database (they wait for their first line).
  for (const c of ahead) c.kill()
  await Promise.all(ahead.map((c) => c.exited))
  await b.verify()
  return stats
}

const summary = (s: LoopStats): Record<string, string | number> => ({
  kills: s.kills,
  retries: s.retries,
  ...s.landed,
  'slowest retry (ms)': Math.round(Math.max(...s.retryMs))
})

async function suite(name: Backend['name'], make: () => Promise<Backend>, seed: number): Promise<void> {
  const t0 = performance.now()
  const b = await make()
  try {
    const stats = await killAndRetry(b, prng(seed))
    expect(stats.kills).toBe(KILLS)
    // The aims reach every stage: before staging, during it, and in or after the publish.
    const landed = (...keys: string[]) => keys.reduce((n, k) => n + (stats.landed[`kills ${k}`] ?? 0), 0)
    expect(landed('before staging', 'staging begun, no batch yet'), JSON.stringify(stats.landed)).toBeGreaterThan(0)
    expect(landed('during staging'), JSON.stringify(stats.landed)).toBeGreaterThan(0)
    expect(landed('during publish', 'after publish committed'), JSON.stringify(stats.landed)).toBeGreaterThan(0)
    expect(stats.retries).toBe(stats.kills + (stats.landed['runs that ended before their kill'] ?? 0))
    reportSuite(`import-retry-kill (${name})`, t0, { seed, ...summary(stats) })
  } finally {
    await b.close()
  }
}

// Both backends at once (one per core); CRASH_SEED=<seed> replays a schedule.
describe.concurrent(`SIGKILL at ${KILLS} seeded moments, each followed at once by a retry that must import the whole file`, () => {
  it('on SQLite', () => suite('sqlite', sqliteBackend, SEED), 240_000)
  describeWith(POSTGRES, 'on PostgreSQL', () => {
    it('on PostgreSQL', () => suite('postgres', postgresBackend, SEED ^ 0x5bd1e995), 240_000)
  })
})
