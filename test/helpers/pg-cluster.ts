/**
 * A PostgreSQL server for the store tests and the team benchmark (no test runner here:
 * test/helpers/postgres.ts wraps it in vitest hooks). With `ARBITER_PG_URL` set (a superuser-ish
 * URL that may CREATE DATABASE), its server is used; otherwise a throwaway cluster is started in a temp dir
 * (initdb + pg_ctl, its own socket dir and port: nothing of the system service is used) and
 * removed afterwards. Each `createDatabase()` is a new, empty database. Without the binaries (and
 * without ARBITER_PG_URL) the PostgreSQL suites are skipped with `postgresMissing`'s reason, and fail
 * with it under CI (test/helpers/prerequisites.ts); `startPostgres` itself throws saying what to install.
 */
import { execFileSync } from 'node:child_process'
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'

const BINARIES = ['initdb', 'pg_ctl', 'postgres'] as const
const DEBIAN_PG = '/usr/lib/postgresql'

/** The folder holding initdb, pg_ctl and postgres: PATH first, then Debian's /usr/lib/postgresql/<v>/bin (newest). */
function postgresBinIn(env: NodeJS.ProcessEnv, debian: string): string | undefined {
  const dirs = (env.PATH ?? '').split(':').filter((d) => d !== '')
  if (existsSync(debian)) {
    const versions = readdirSync(debian).filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a))
    dirs.push(...versions.map((v) => join(debian, v, 'bin')))
  }
  return dirs.find((d) => BINARIES.every((b) => existsSync(join(d, b))))
}

/** Why the PostgreSQL suites cannot run here, or null when ARBITER_PG_URL is set or the binaries are found. */
export function postgresMissing(env: NodeJS.ProcessEnv = process.env, debian = DEBIAN_PG): string | null {
  if ((env.ARBITER_PG_URL ?? '') !== '' || postgresBinIn(env, debian) !== undefined) return null
  return 'no PostgreSQL server binaries (initdb, pg_ctl, postgres) on PATH nor in /usr/lib/postgresql/*/bin (install postgresql or set ARBITER_PG_URL)'
}

/** The folder holding initdb, pg_ctl and postgres, or an error saying what to install. */
export function findPostgresBin(env: NodeJS.ProcessEnv = process.env): string {
  const found = postgresBinIn(env, DEBIAN_PG)
  if (found === undefined) {
    throw new Error(
      'PostgreSQL server binaries (initdb, pg_ctl, postgres) were not found on PATH nor in /usr/lib/postgresql/*/bin. ' +
        "Install Debian's `postgresql` package (apt-get install -y postgresql), or set ARBITER_PG_URL to a server " +
        'where the tests may CREATE DATABASE.'
    )
  }
  return found
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer()
    srv.unref()
    srv.on('error', reject)
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address()
      const port = typeof addr === 'object' && addr !== null ? addr.port : 0
      srv.close(() => resolve(port))
    })
  })
}

const isRoot = (): boolean => typeof process.getuid === 'function' && process.getuid() === 0

/** Runs a PostgreSQL binary; as root, as user `postgres` (initdb and postgres refuse root). */
function runPg(bin: string, args: string[]): void {
  const [cmd, argv] = isRoot() ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args]
  execFileSync(cmd, argv, { stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 })
}

export type PgCluster = {
  /** An admin URL (database `postgres`). */
  adminUrl: string
  /** A new, empty database; returns its URL. */
  createDatabase(): Promise<string>
  stop(): Promise<void>
}

export type StartOptions = {
  /**
   * Leave fsync, synchronous commit and full-page writes as the server defaults them (on), and off
   * the command line, so that ALTER SYSTEM + pg_reload_conf() can switch them (a benchmark builds
   * its data without them and measures with them). By default a test cluster runs without them.
   */
  durable?: boolean
}

/** Starts a throwaway cluster (or uses ARBITER_PG_URL). */
export async function startPostgres(opts: StartOptions = {}): Promise<PgCluster> {
  const external = process.env.ARBITER_PG_URL
  let dir: string | null = null
  let bin = ''
  let adminUrl: string
  if (external !== undefined && external !== '') {
    adminUrl = external
  } else {
    bin = findPostgresBin()
    dir = mkdtempSync(join(tmpdir(), 'arbiter-pg-'))
    if (isRoot()) chownSync(dir, Number(execFileSync('id', ['-u', 'postgres']).toString().trim()), Number(execFileSync('id', ['-g', 'postgres']).toString().trim()))
    const data = join(dir, 'data')
    try {
      runPg(join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '--no-locale', '-E', 'UTF8', '--no-sync'])
    } catch (e) {
      rmSync(dir, { recursive: true, force: true })
      throw new Error(`initdb failed: ${String((e as { stderr?: Buffer }).stderr ?? e)}`, { cause: e })
    }
    const port = await freePort()
    // Durability off for tests: the store's own settings do not depend on these.
    const durability = opts.durable === true ? '' : ' -c fsync=off -c synchronous_commit=off -c full_page_writes=off'
    const serverOpts = `-k ${dir} -h 127.0.0.1 -p ${port} -c max_connections=200${durability}`
    try {
      runPg(join(bin, 'pg_ctl'), ['-D', data, '-l', join(dir, 'log'), '-w', '-t', '30', '-o', serverOpts, 'start'])
    } catch (e) {
      const log = existsSync(join(dir, 'log')) ? readFileSync(join(dir, 'log'), 'utf8') : ''
      rmSync(dir, { recursive: true, force: true })
      throw new Error(`pg_ctl start failed: ${String((e as { stderr?: Buffer }).stderr ?? e)}\n${log}`, { cause: e })
    }
    adminUrl = `postgres://postgres@127.0.0.1:${port}/postgres`
  }

  const admin = new pg.Client({ connectionString: adminUrl })
  await admin.connect()
  const created: string[] = []
  const prefix = `arbiter_test_${process.pid}_${Date.now().toString(36)}`
  return {
    adminUrl,
    async createDatabase() {
      const name = `${prefix}_${created.length + 1}`
      await admin.query(`CREATE DATABASE ${name}`)
      created.push(name)
      const url = new URL(adminUrl)
      url.pathname = `/${name}`
      return url.toString()
    },
    async stop() {
      if (dir === null) {
        // An external server: drop what we made.
        for (const name of created) await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined)
      }
      await admin.end().catch(() => undefined)
      if (dir !== null) {
        try {
          runPg(join(bin, 'pg_ctl'), ['-D', join(dir, 'data'), '-m', 'immediate', '-w', 'stop'])
        } finally {
          rmSync(dir, { recursive: true, force: true })
        }
      }
    }
  }
}
