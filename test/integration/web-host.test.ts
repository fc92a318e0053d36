import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startConsoleServer, type ConsoleServer } from '../../src/main/console-server'
import { CONTENT_SECURITY_POLICY } from '../../src/main/host/hardening'
import { SESSION_PAGE_CSP } from '../../src/main/host/web-sessions'
import { MAX_BODY_BYTES } from '../../src/main/host/web'
import { openStore } from '../../src/main/store'
import { rawRequest } from '../helpers/http'

let dir: string
let server: ConsoleServer
let port: number
let token: string
const auth = () => ({ authorization: `Bearer ${token}` })

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'arbiter-web-'))
  server = await startConsoleServer({ dbLocation: join(dir, 'arbiter.db') })
  port = server.host.port
  token = server.host.token
})

afterAll(async () => {
  await server.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('web host: where it listens', () => {
  it('binds 127.0.0.1 only', () => {
    expect(server.host.url).toBe(`http://127.0.0.1:${port}/`)
    // The login URL carries the token once.
    expect(server.host.loginUrl).toBe(`http://127.0.0.1:${port}/?token=${encodeURIComponent(token)}`)
  })
})

describe('web host: token and cookie', () => {
  it('refuses every route without the token or cookie (401)', async () => {
    for (const path of ['/', '/index.html', '/assets/x.js', '/api/events']) {
      expect((await rawRequest(port, { path })).status).toBe(401)
    }
    expect((await rawRequest(port, { method: 'POST', path: '/api/app.counts', body: '{}' })).status).toBe(401)
    expect((await rawRequest(port, { path: '/', headers: { authorization: 'Bearer wrong' } })).status).toBe(401)
    expect((await rawRequest(port, { path: '/', headers: { cookie: `arbiter_${port}=wrong` } })).status).toBe(401)
  })

  it('answers a browser navigating without a valid login with a page, not JSON: "restarted" for a stale cookie or link', async () => {
    const html = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' }
    const stale = await rawRequest(port, { path: '/', headers: { ...html, cookie: `arbiter_${port}=from-a-previous-start` } })
    expect(stale.status).toBe(401)
    expect(String(stale.headers['content-type'])).toContain('text/html')
    expect(stale.body).toContain('The Arbiter server restarted')
    expect(stale.body).toContain('arbiter serve')
    expect(stale.body).not.toContain('<script')
    // Its own inline style sheet, and still no script of any kind.
    expect(stale.headers['content-security-policy']).toBe(SESSION_PAGE_CSP)
    const oldLink = await rawRequest(port, { path: '/?token=from-a-previous-start', headers: html })
    expect(oldLink.status).toBe(401)
    // A browser that never signed in here is told its link is out of date, not that its sign-in was lost.
    expect(oldLink.body).toContain('This sign-in link is out of date')
    const oldLinkSignedIn = await rawRequest(port, { path: '/?token=from-a-previous-start', headers: { ...html, cookie: `arbiter_${port}=from-a-previous-start` } })
    expect(oldLinkSignedIn.body).toContain('The Arbiter server restarted')
    expect(oldLink.headers['set-cookie']).toBeUndefined()
    const fresh = await rawRequest(port, { path: '/index.html', headers: html })
    expect(fresh.status).toBe(401)
    expect(fresh.body).toContain('not signed in')
    // Same page for every path (no existence oracle); API calls and tools keep the JSON envelope.
    expect((await rawRequest(port, { path: '/assets/nope.js', headers: html })).body).toBe(fresh.body)
    const api = await rawRequest(port, { method: 'POST', path: '/api/app.counts', body: '{}', headers: html })
    expect(api.status).toBe(401)
    expect(JSON.parse(api.body)).toMatchObject({ ok: false, error: { code: 'unauthorized' } })
    // The login refusal is marked apart from a handler's own `unauthorized` (both are 401).
    expect(api.headers['x-arbiter-login']).toBe('required')
    const signedIn = await rawRequest(port, { method: 'POST', path: '/api/app.counts', body: '{}', headers: auth() })
    expect(signedIn.status).toBe(200)
    expect(signedIn.headers['x-arbiter-login']).toBeUndefined()
    expect(JSON.parse((await rawRequest(port, { path: '/' })).body)).toMatchObject({ ok: false, error: { code: 'unauthorized' } })
  })

  it('exchanges /?token=T for an HttpOnly SameSite=Strict session cookie named for the port, then redirects to / with the secret in the fragment', async () => {
    const res = await rawRequest(port, { path: `/?token=${encodeURIComponent(token)}`, headers: { 'sec-fetch-site': 'none' } })
    expect(res.status).toBe(302)
    expect(res.headers.location).toMatch(/^\/#arbiter-secret=[A-Za-z0-9_-]{43}$/)
    const cookie = String(res.headers['set-cookie'])
    expect(cookie).toMatch(new RegExp(`^arbiter_${port}=[A-Za-z0-9_-]{24}\\.[A-Za-z0-9_-]{43};`))
    expect(cookie).not.toContain(encodeURIComponent(token)) // the cookie is a session id, never the token
    expect(cookie).toMatch(/HttpOnly/)
    expect(cookie).toMatch(/SameSite=Strict/)
    expect((await rawRequest(port, { path: '/?token=nope' })).status).toBe(401)

    const page = await rawRequest(port, { path: '/', headers: { cookie: cookie.split(';')[0] } })
    expect(page.status).toBe(200)
    expect(page.body).toContain('<div id="root">')
    // The token itself is no cookie: a service on another port that received it learns no session.
    expect((await rawRequest(port, { path: '/', headers: { cookie: `arbiter_${port}=${encodeURIComponent(token)}` } })).status).toBe(401)
  })

  it('accepts a Bearer token on the API', async () => {
    const res = await rawRequest(port, { method: 'POST', path: '/api/app.counts', headers: auth(), body: '{}' })
    expect(res.status).toBe(200)
    expect(JSON.parse(res.body)).toEqual({ ok: true, value: expect.objectContaining({ tasks: 0, labels: 0 }) })
  })
})

describe('web host: Host, Origin, paths', () => {
  it('refuses a foreign Host header (DNS rebinding) with 403, even with the token', async () => {
    for (const host of ['evil.example', `evil.example:${port}`, `127.0.0.1:${port + 1}`, `[::1]:${port}`]) {
      expect((await rawRequest(port, { path: '/', headers: { ...auth(), host } })).status, host).toBe(403)
    }
    // No Host at all: Node's HTTP/1.1 server refuses it before our handler runs.
    expect((await rawRequest(port, { path: '/', headers: { ...auth(), host: '' } })).status).toBe(400)
    expect((await rawRequest(port, { path: '/', headers: { ...auth(), host: `localhost:${port}` } })).status).toBe(200)
  })

  it('refuses a foreign Origin on writes with 403', async () => {
    const res = await rawRequest(port, { method: 'POST', path: '/api/app.counts', headers: { ...auth(), origin: 'http://evil.example' }, body: '{}' })
    expect(res.status).toBe(403)
    const same = await rawRequest(port, { method: 'POST', path: '/api/app.counts', headers: { ...auth(), origin: `http://127.0.0.1:${port}` }, body: '{}' })
    expect(same.status).toBe(200)
  })

  it('serves no file outside the renderer build (404)', async () => {
    for (const path of ['/../package.json', '/%2e%2e/package.json', '/assets/../../package.json', '/..%2f..%2fpackage.json', '/%00', '/nope.html', '/..\\package.json']) {
      expect((await rawRequest(port, { path, headers: auth() })).status, path).toBe(404)
    }
  })

  it('sends the one CSP and hardening headers on every response', async () => {
    for (const req of [{ path: '/', headers: auth() }, { path: '/' }, { path: '/missing', headers: auth() }]) {
      const res = await rawRequest(port, req)
      expect(res.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY)
      expect(res.headers['x-content-type-options']).toBe('nosniff')
      expect(res.headers['x-frame-options']).toBe('DENY')
    }
  })
})

describe('web host: the API envelope', () => {
  it('maps bad input to 400, unknown calls to 404 and oversized bodies to 413', async () => {
    const bad = await rawRequest(port, { method: 'POST', path: '/api/settings.update', headers: auth(), body: '{"patch":{"reviewer":""}}' })
    expect(bad.status).toBe(400)
    expect(JSON.parse(bad.body).error.code).toBe('bad_input')
    const extra = await rawRequest(port, { method: 'POST', path: '/api/app.counts', headers: auth(), body: '{"x":1}' })
    expect(extra.status).toBe(400)
    expect((await rawRequest(port, { method: 'POST', path: '/api/nope', headers: auth(), body: '{}' })).status).toBe(404)
    expect((await rawRequest(port, { method: 'POST', path: '/api/app.counts', headers: auth(), body: 'not json' })).status).toBe(400)
    expect((await rawRequest(port, { method: 'GET', path: '/api/app.counts', headers: auth() })).status).toBe(405)
    const big = await rawRequest(port, { method: 'POST', path: '/api/app.counts', headers: auth(), body: Buffer.alloc(MAX_BODY_BYTES + 1, 32) })
    expect(big.status).toBe(413)
  })

  it('streams events: a settings write reaches an SSE client', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/api/events`, { headers: auth() })
    expect(res.headers.get('content-type')).toBe('text/event-stream')
    const reader = res.body!.getReader()
    const update = rawRequest(port, { method: 'POST', path: '/api/settings.update', headers: auth(), body: '{"patch":{"reviewer":"ana"}}' })
    let text = ''
    while (!text.includes('"changed"')) {
      const { value, done } = await reader.read()
      if (done) break
      text += new TextDecoder().decode(value)
    }
    await reader.cancel()
    expect((await update).status).toBe(200)
    expect(text).toContain('"topics":["settings"')
  })
})

describe('web host: one login (no --reviewer), several tabs', () => {
  it('calls as the reviewer of Settings, in the process session or a tab of it; a bad tab id is 400', async () => {
    const call = (method: string, body: unknown, tab?: string) =>
      rawRequest(port, { method: 'POST', path: `/api/${method}`, headers: { ...auth(), ...(tab === undefined ? {} : { 'x-arbiter-session': tab }) }, body: JSON.stringify(body) })
    expect(JSON.parse((await call('app.info', {})).body).value.reviewerFromToken).toBe(false)
    const renamed = await call('settings.update', { patch: { reviewer: 'cy' } })
    expect(JSON.parse(renamed.body).value.reviewer).toBe('cy')
    const session = server.service.context().sessionId
    await call('settings.update', { patch: { theme: 'light' } }, 'tab-one-0001')
    const store = await openStore(join(dir, 'arbiter.db'))
    try {
      const [last] = await store.auditTail(1)
      // The rename is written as the old name; from then on the calls are cy's.
      expect(last).toMatchObject({ action: 'settings.set', reviewer: 'cy', sessionId: `${session}/tab-one-0001` })
    } finally {
      await store.close()
    }
    for (const bad of ['short', 'not/allowed/chars', 'x'.repeat(65)]) {
      const res = await call('app.counts', {}, bad)
      expect(res.status, bad).toBe(400)
      expect(JSON.parse(res.body).error.message).toContain('session header')
    }
  })
})
