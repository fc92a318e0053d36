/**
 * `serve` without `--port`: a restart comes back on the port the last start used (a state file in
 * the data folder), and a port another program holds falls back to a free one, said on stdout.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServe } from '../../src/main/cli/commands/serve'
import { rememberServePort, SERVE_PORT_FILE } from '../../src/main/cli/serve-port'
import { DEFAULT_RENDERER_DIR } from '../../src/main/console-server'
import { existsSync } from 'node:fs'

let home: string
const env = (): NodeJS.ProcessEnv => ({ ARBITER_HOME: home })

beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), 'arbiter-serve-port-'))
})
afterAll(() => rmSync(home, { recursive: true, force: true }))

/** A port free right now (the OS picks it). */
async function freePort(): Promise<number> {
  const s = createServer()
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()))
  const port = (s.address() as { port: number }).port
  await new Promise<void>((r) => s.close(() => r()))
  return port
}

async function serveOnce(): Promise<{ port: number; lines: string[] }> {
  const lines: string[] = []
  const server = await startServe({ dbLocation: join(home, 'arbiter.db'), port: null, reviewers: [] }, { out: (l) => lines.push(l) }, env())
  const port = server.host.port
  await server.close()
  return { port, lines }
}

describe.runIf(existsSync(join(DEFAULT_RENDERER_DIR, 'index.html')))('serve without --port', () => {
  it('comes back on the same port after a restart', async () => {
    const start = await freePort()
    rememberServePort(start, env())
    const first = await serveOnce()
    const second = await serveOnce()
    expect(first.port).toBe(start)
    expect(second.port).toBe(start)
    expect(second.lines.join('\n')).toContain(`http://127.0.0.1:${start}/`)
    expect(readFileSync(join(home, SERVE_PORT_FILE), 'utf8').trim()).toBe(String(start))
  })

  it('falls back to a free port when another program holds it, says so, and keeps the new one', async () => {
    const held = await freePort()
    rememberServePort(held, env())
    const blocker: Server = createServer()
    await new Promise<void>((r) => blocker.listen(held, '127.0.0.1', () => r()))
    try {
      const moved = await serveOnce()
      expect(moved.port).not.toBe(held)
      expect(moved.lines.join('\n')).toContain(`Port ${held} is in use by another program; listening on ${moved.port} instead`)
      const again = await serveOnce()
      expect(again.port).toBe(moved.port)
      expect(again.lines.join('\n')).not.toContain('in use')
    } finally {
      await new Promise<void>((r) => blocker.close(() => r()))
    }
  })
})
