import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { COMMANDS } from '../../../src/main/cli/commands'
import { helpText } from '../../../src/main/cli/run'

const root = join(__dirname, '../../..')
const tsx = join(root, 'node_modules/.bin/tsx')
const cli = (...args: string[]) => spawnSync(tsx, [join(root, 'src/main/cli/index.ts'), ...args], { cwd: root, encoding: 'utf8', timeout: 60_000 })

describe('arbiter CLI dispatch', () => {
  it('--help lists exactly the registered commands and exits 0', () => {
    const r = cli('--help')
    expect(r.status).toBe(0)
    expect(r.stdout).toBe(`${helpText()}\n`)
    for (const c of COMMANDS) expect(r.stdout).toMatch(new RegExp(`^  ${c.name}\\s`, 'm'))
    const listed = [...r.stdout.matchAll(/^ {2}(\S+) {2,}/gm)].map((m) => m[1])
    expect(listed).toEqual(COMMANDS.map((c) => c.name))
  })

  it('exits 2 for an unknown command or a bad option, with the reason on stderr', () => {
    const unknown = cli('frobnicate')
    expect(unknown.status).toBe(2)
    expect(unknown.stderr).toContain('unknown command "frobnicate"')
    const badPort = cli('serve', '--port', 'abc')
    expect(badPort.status).toBe(2)
    expect(badPort.stderr).toContain('--port must be an integer')
    const badFlag = cli('serve', '--nope')
    expect(badFlag.status).toBe(2)
  })

  it('serve prints the URL with its token and answers on 127.0.0.1, then stops on SIGTERM', async () => {
    await serving(() => [], (out) => /Open: (http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/.exec(out)?.[1] ?? null, async (url, dir) => {
      const token = decodeURIComponent(new URL(url).searchParams.get('token')!)
      const res = await fetch(new URL('/api/app.info', url), { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: '{}' })
      const body = (await res.json()) as { ok: boolean; value: { shell: string; dbLocation: string } }
      expect(body.ok).toBe(true)
      expect(body.value.shell).toBe('web')
      expect(body.value.dbLocation).toBe(join(dir, 'a.db'))
    })
  })

  it('serve --reviewer prints one login URL per reviewer; each calls as its reviewer; a bad name is exit 2', async () => {
    const logins = (out: string) => {
      const found = Object.fromEntries([...out.matchAll(/^(\w+): (http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)$/gm)].map((m) => [m[1], m[2]]))
      return Object.keys(found).length === 2 ? found : null
    }
    await serving((dir) => ['--reviewer', 'alice', '--reviewers', join(dir, 'team.txt')], logins, async (urls) => {
      expect(Object.keys(urls)).toEqual(['alice', 'bob'])
      for (const [reviewer, url] of Object.entries(urls)) {
        const token = decodeURIComponent(new URL(url).searchParams.get('token')!)
        const res = await fetch(new URL('/api/settings.get', url), { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: '{}' })
        expect(((await res.json()) as { value: { reviewer: string } }).value.reviewer).toBe(reviewer)
      }
    })
    const twice = cli('serve', '--reviewer', 'ana', '--reviewer', 'ana')
    expect(twice.status).toBe(2)
    expect(twice.stderr).toContain('named twice')
    expect(cli('serve', '--reviewer', ' ').status).toBe(2)
  })
})

/**
 * Runs `serve --db <tmp>/a.db ...args(tmp)` (a `team.txt` in that folder names bob) until `ready` finds
 * what it waits for on stdout, runs `body` on it, then stops the server with SIGTERM (exit 0).
 */
async function serving<T>(args: (dir: string) => string[], ready: (stdout: string) => T | null, body: (found: T, dir: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'arbiter-cli-'))
  writeFileSync(join(dir, 'team.txt'), '# second shift\nbob\n')
  const child = spawn(tsx, [join(root, 'src/main/cli/index.ts'), 'serve', '--db', join(dir, 'a.db'), ...args(dir)], { cwd: root, env: { ...process.env, ARBITER_HOME: dir } })
  try {
    const found = await new Promise<T>((resolve, reject) => {
      let out = ''
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString()
        const value = ready(out)
        if (value !== null) resolve(value)
      })
      child.on('exit', (code) => reject(new Error(`serve exited ${code}: ${out}`)))
    })
    await body(found, dir)
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
    child.kill('SIGTERM')
    expect(await exited).toBe(0)
  } finally {
    child.kill('SIGKILL')
    rmSync(dir, { recursive: true, force: true })
  }
}
