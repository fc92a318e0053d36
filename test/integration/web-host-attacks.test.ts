/**
 * The web host under attack: the token on every route the host has, DNS
 * rebinding Host values, path traversal towards real files beside the renderer build, and body
 * caps that hold without a Content-Length. web-host.test.ts covers the basic cases; this file
 * enumerates. The renderer dir is a scratch copy with a secret file next to it, so a traversal
 * that worked would show the secret.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { request } from 'node:http'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { API_METHODS } from '../../src/shared/api-methods'
import { startConsoleServer, type ConsoleServer } from '../../src/main/console-server'
import { MAX_BODY_BYTES } from '../../src/main/host/web'
import { MAX_REQUEST_DEPTH } from '../../src/shared/server-limits'
import { rawRequest } from '../helpers/http'

const SECRET = 'SECRET-9f2c61 outside the renderer build'
let dir: string
let server: ConsoleServer
let port: number
let token: string
const auth = () => ({ authorization: `Bearer ${token}` })
const post = (method: string, body: string | Buffer, headers: Record<string, string> = auth()) =>
  rawRequest(port, { method: 'POST', path: `/api/${method}`, headers, body })

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'arbiter-attacks-'))
  const renderer = join(dir, 'renderer')
  mkdirSync(join(renderer, 'assets'), { recursive: true })
  writeFileSync(join(renderer, 'index.html'), '<!doctype html><div id="root"></div>')
  writeFileSync(join(renderer, 'assets/app.js'), 'console.log("app")')
  // Targets a traversal would reach: a file beside the build, a sibling dir sharing its prefix.
  writeFileSync(join(dir, 'secret.txt'), SECRET)
  mkdirSync(join(dir, 'renderer-evil'))
  writeFileSync(join(dir, 'renderer-evil/x.txt'), SECRET)
  server = await startConsoleServer({ dbLocation: join(dir, 'arbiter.db'), rendererDir: renderer, demoIfMissing: false })
  port = server.host.port
  token = server.host.token
})

afterAll(async () => {
  await server.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('the token guards every route', () => {
  const STATIC = ['/', '/index.html', '/assets/app.js', '/favicon.svg', '/does-not-exist', '/api/events']

  it('answers 401 to every contract call without a token, with a wrong one, or with the token in the query', async () => {
    for (const method of API_METHODS) {
      const refused: Record<string, string>[] = [{}, { authorization: 'Bearer wrong' }, { cookie: `arbiter_${port}=wrong` }, { authorization: `Basic ${token}` }]
      for (const headers of refused) {
        const res = await post(method, '{}', headers)
        expect(res.status, `${method} ${JSON.stringify(headers)}`).toBe(401)
        expect(JSON.parse(res.body)).toMatchObject({ ok: false, error: { code: 'unauthorized' } })
      }
      const query = await rawRequest(port, { method: 'POST', path: `/api/${method}?token=${encodeURIComponent(token)}`, body: '{}' })
      expect(query.status, method).toBe(401)
    }
  })

  it('answers 401 on static paths, the event stream and unknown paths alike (no existence oracle)', async () => {
    for (const path of STATIC) {
      for (const method of ['GET', 'HEAD']) expect((await rawRequest(port, { method, path })).status, `${method} ${path}`).toBe(401)
    }
    expect((await rawRequest(port, { path: '/?token=wrong' })).status).toBe(401)
    // A cookie for another port's server is not ours (cookies ignore ports).
    expect((await rawRequest(port, { path: '/', headers: { cookie: `arbiter_${port + 1}=${encodeURIComponent(token)}` } })).status).toBe(401)
    // A malformed cookie is a wrong token, not a server error.
    expect((await rawRequest(port, { path: '/', headers: { cookie: `arbiter_${port}=%E0%A4%A` } })).status).toBe(401)
  })

  it('runs no handler for a refused call', async () => {
    const before = await post('settings.get', '{}')
    expect((await post('settings.update', '{"patch":{"reviewer":"mallory"}}', {})).status).toBe(401)
    expect((await post('settings.get', '{}')).body).toBe(before.body)
  })

  it('serves the same routes with the token (so the 401s above are the token’s doing)', async () => {
    expect((await rawRequest(port, { path: '/assets/app.js', headers: auth() })).body).toBe('console.log("app")')
    expect((await post('app.counts', '{}')).status).toBe(200)
  })
})

describe('DNS rebinding: a foreign Host is refused with 403, whatever else the request carries', () => {
  const hosts = () => [
    'evil.com', 'evil.com:80', `evil.com:${port}`, '127.0.0.1.evil.com', `127.0.0.1.evil.com:${port}`, `127.0.0.1:${port}.evil.com`,
    `localhost:${port + 1}`, `127.0.0.1:${port - 1}`, 'localhost', '127.0.0.1', `localhost.:${port}`, `0.0.0.0:${port}`,
    `127.0.0.2:${port}`, `2130706433:${port}`, `0x7f000001:${port}`, `[::1]:${port}`, `[::ffff:127.0.0.1]:${port}`,
    `127.0.0.1:${port}@evil.com`, `user@127.0.0.1:${port}`
  ]

  it('on pages, calls and the event stream, even with the token', async () => {
    for (const host of hosts()) {
      expect((await rawRequest(port, { path: '/', headers: { ...auth(), host } })).status, host).toBe(403)
      expect((await rawRequest(port, { path: '/api/events', headers: { ...auth(), host } })).status, host).toBe(403)
      expect((await post('app.counts', '{}', { ...auth(), host })).status, host).toBe(403)
    }
  })

  it('checks the Host before the token (a rebinding page learns nothing about the token)', async () => {
    for (const host of hosts()) expect((await rawRequest(port, { path: '/?token=wrong', headers: { host } })).status, host).toBe(403)
  })

  it('accepts both names of the loopback host, in any case', async () => {
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LocalHost:${port}`]) {
      expect((await rawRequest(port, { path: '/', headers: { ...auth(), host } })).status, host).toBe(200)
    }
  })
})

describe('path traversal: nothing outside the renderer build is ever served', () => {
  const ATTEMPTS = [
    '/../secret.txt', '/../../secret.txt', '/assets/../../secret.txt', '/%2e%2e/secret.txt', '/%2E%2E/secret.txt', '/.%2e/secret.txt',
    '/%2e%2e/%2e%2e/etc/passwd', '/..%2fsecret.txt', '/assets/..%2f..%2fsecret.txt', '/assets/..%2f..%2fsrc', '/%2e%2e%2fsecret.txt',
    '/..\\secret.txt', '/..%5csecret.txt', '/assets\\..\\..\\secret.txt', '/%252e%252e/secret.txt', '/%252e%252e%252fsecret.txt',
    '/..%252fsecret.txt', '/%c0%ae%c0%ae/secret.txt', '/%uff0e%uff0e/secret.txt', '/%00/../secret.txt', '/secret.txt%00.html',
    '/index.html%00', '/%00', '//secret.txt', `/${encodeURIComponent(join(dir ?? '', 'secret.txt'))}`, '/../renderer-evil/x.txt',
    '/..%2frenderer-evil%2fx.txt', '/%', '/%zz', '/etc/passwd', '/assets/', '/assets'
  ]

  it('answers 4xx with no file content to every attempt, with the token', async () => {
    for (const path of [...ATTEMPTS, `/${encodeURIComponent(join(dir, 'secret.txt'))}`, `/${join(dir, 'secret.txt')}`]) {
      const res = await rawRequest(port, { path, headers: auth() })
      expect(res.status, path).toBeGreaterThanOrEqual(400)
      expect(res.status, path).toBeLessThan(500)
      expect(res.body, path).not.toContain('SECRET')
      expect(res.body, path).not.toContain('root:')
    }
  })

  it('does the same for an absolute-form request target', async () => {
    const res = await rawRequest(port, { path: `http://127.0.0.1:${port}/../secret.txt`, headers: auth() })
    expect(res.status).toBe(404)
    expect(res.body).not.toContain('SECRET')
  })
})

/** Streams `bytes` of spaces as a chunked body (no Content-Length); keeps the request open if `hold`. */
function chunkedPost(bytes: number, hold: boolean): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, method: 'POST', path: '/api/app.counts', headers: { ...auth(), 'transfer-encoding': 'chunked' } },
      (res) => {
        let body = ''
        res.on('data', (c: Buffer) => (body += c.toString()))
        res.on('end', () => {
          req.destroy()
          resolve({ status: res.statusCode ?? 0, body })
        })
      }
    )
    // The server may close after answering while we still write: that is not the outcome under test.
    req.on('error', (e: NodeJS.ErrnoException) => (e.code === 'EPIPE' || e.code === 'ECONNRESET' ? undefined : reject(e)))
    const chunk = Buffer.alloc(64 * 1024, 32)
    let sent = 0
    const pump = (): void => {
      while (sent < bytes) {
        const n = Math.min(chunk.length, bytes - sent)
        sent += n
        if (!req.write(chunk.subarray(0, n))) return void req.once('drain', pump)
      }
      if (!hold) req.end()
    }
    pump()
  })
}

describe('body size caps', () => {
  it('refuses a chunked body over the cap with 413, and runs nothing', async () => {
    const res = await chunkedPost(MAX_BODY_BYTES + 1, false)
    expect(res.status).toBe(413)
    expect(JSON.parse(res.body)).toMatchObject({ ok: false, error: { code: 'bad_input' } })
    expect((await chunkedPost(8 * MAX_BODY_BYTES, false)).status).toBe(413)
  })

  it('answers 413 as soon as a chunked body passes the cap, without waiting for a body that never ends', async () => {
    // The request stays open: a server that read to the end first would never answer.
    expect((await chunkedPost(MAX_BODY_BYTES + 64 * 1024, true)).status).toBe(413)
  })

  it('accepts a chunked body at exactly the cap', async () => {
    const json = Buffer.alloc(MAX_BODY_BYTES, 32)
    json.write('{}', 0)
    const res = await rawRequest(port, { method: 'POST', path: '/api/app.counts', headers: { ...auth(), 'transfer-encoding': 'chunked' }, body: json })
    expect(res.status).toBe(200)
  })

  it('refuses a declared Content-Length over the cap before reading the body', async () => {
    const reply = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () =>
        socket.write(`POST /api/app.counts HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${token}\r\nContent-Length: ${MAX_BODY_BYTES * 1000}\r\n\r\n{}`)
      )
      let text = ''
      socket.on('data', (d: Buffer) => (text += d.toString()))
      socket.on('close', () => resolve(text)) // the host closes: it will not read a gigabyte it refused
      socket.on('error', reject)
    })
    expect(reply).toMatch(/^HTTP\/1\.1 413 /)
    expect(reply).toContain('"code":"bad_input"')
  })

  it('keeps a refused body’s handler from running, and keeps serving afterwards', async () => {
    const before = (await post('settings.get', '{}')).body
    const padded = Buffer.concat([Buffer.from('{"patch":{"reviewer":"mallory"}}'), Buffer.alloc(MAX_BODY_BYTES, 32)])
    expect((await post('settings.update', padded)).status).toBe(413)
    expect((await post('settings.get', '{}')).body).toBe(before)
  })
})

describe('body nesting cap', () => {
  const nested = (depth: number, open = '[', close = ']') => open.repeat(depth) + close.repeat(depth)
  const refusedForDepth = (res: { status: number; body: string }) =>
    res.status === 400 && (JSON.parse(res.body) as { error: { message: string } }).error.message === `request body nests deeper than ${MAX_REQUEST_DEPTH} levels`

  it('refuses a body nested 200 deep with 400 and says why, before parsing it', async () => {
    const res = await post('app.counts', nested(200))
    expect(res.status).toBe(400)
    expect(JSON.parse(res.body)).toMatchObject({ ok: false, error: { code: 'bad_input', message: `request body nests deeper than ${MAX_REQUEST_DEPTH} levels` } })
    expect(refusedForDepth(await post('app.counts', `{"a":${nested(100, '{"a":', '}')}}`))).toBe(true)
  })

  it('refuses a megabyte of opening brackets the same way, and keeps serving', async () => {
    expect(refusedForDepth(await post('app.counts', Buffer.alloc(MAX_BODY_BYTES, '[')))).toBe(true)
    expect((await post('app.counts', '{}')).status).toBe(200)
  })

  it('counts only structure: the limit itself passes, and brackets inside strings never count', async () => {
    expect(refusedForDepth(await post('app.counts', nested(MAX_REQUEST_DEPTH)))).toBe(false)
    expect(refusedForDepth(await post('app.counts', JSON.stringify({ text: `\\"${nested(500)}` })))).toBe(false)
  })
})
