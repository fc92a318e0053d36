/**
 * The browser session over HTTP (docs/architecture.md, security model): a cookie another local
 * port receives is not enough to call the API, a tossed second cookie is refused, a session ends
 * after its idle lifetime and on sign-out, and the login link refuses other sites and asks a
 * browser that sends no fetch metadata.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startConsoleServer, type ConsoleServer } from '../../src/main/console-server'
import { rawRequest } from '../helpers/http'
import { sessionHeaders, signIn, type BrowserSession } from '../helpers/web-client'

const IDLE_MS = 60_000
let dir: string
let server: ConsoleServer
let port: number
let now = 1_000_000

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'arbiter-web-session-'))
  server = await startConsoleServer({ dbLocation: join(dir, 'arbiter.db'), reviewers: ['alice', 'bob'], sessionIdleMs: IDLE_MS, clock: () => now })
  port = server.host.port
})

afterAll(async () => {
  await server.close()
  rmSync(dir, { recursive: true, force: true })
})

const tokenOf = (reviewer: string): string => server.host.logins.find((l) => l.reviewer === reviewer)!.token
const origin = () => ({ origin: `http://127.0.0.1:${port}` })
const call = (method: string, headers: Record<string, string>, body = '{}') =>
  rawRequest(port, { method: 'POST', path: `/api/${method}`, headers: { ...origin(), 'content-type': 'application/json', ...headers }, body })
const whoAmI = async (headers: Record<string, string>): Promise<string> => {
  const res = await call('settings.get', headers)
  return res.status === 200 ? (JSON.parse(res.body).value.reviewer as string) : `status ${res.status}`
}
const signOut = (s: BrowserSession) => rawRequest(port, { method: 'POST', path: '/session/end', headers: { ...origin(), ...sessionHeaders(s) } })

describe('web session: the cookie alone is not a credential', () => {
  it('refuses a replayed cookie without the session secret, or with another session’s secret', async () => {
    const alice = await signIn(port, tokenOf('alice'))
    const bob = await signIn(port, tokenOf('bob'))
    expect(await whoAmI(sessionHeaders(alice))).toBe('alice')
    // What a service on another port of 127.0.0.1 receives: the cookie, nothing else.
    const stolen = await call('settings.get', { cookie: alice.cookie })
    expect(stolen.status).toBe(401)
    expect(stolen.headers['x-arbiter-login']).toBe('required')
    expect(JSON.parse(stolen.body).error.message).toContain('session secret')
    expect(await whoAmI({ cookie: alice.cookie, 'x-arbiter-secret': bob.secret })).toBe('status 401')
    expect(await whoAmI({ cookie: alice.cookie, 'x-arbiter-secret': `${alice.secret}x` })).toBe('status 401')
    // The event stream and sign-out need the secret as well.
    expect((await rawRequest(port, { path: '/api/events', headers: { cookie: alice.cookie } })).status).toBe(401)
    expect((await rawRequest(port, { method: 'POST', path: '/session/end', headers: { ...origin(), cookie: alice.cookie } })).status).toBe(401)
    expect(await whoAmI(sessionHeaders(alice))).toBe('alice')
    // A page still loads on the cookie (a navigation cannot send a header): it holds no data.
    expect((await rawRequest(port, { path: '/', headers: { cookie: alice.cookie } })).status).toBe(200)
  })

  it('refuses a request carrying two session cookies for this port (a cookie tossed from another port)', async () => {
    const alice = await signIn(port, tokenOf('alice'))
    const bob = await signIn(port, tokenOf('bob'))
    // Bob's page on another port set his cookie at Path=/api: the browser sends it first.
    const tossed = await call('settings.get', { cookie: `${bob.cookie}; ${alice.cookie}`, 'x-arbiter-secret': alice.secret })
    expect(tossed.status).toBe(401)
    expect(JSON.parse(tossed.body).error.message).toContain(`two arbiter_${port} cookies`)
    expect((await call('settings.get', { cookie: `${alice.cookie}; ${alice.cookie}`, 'x-arbiter-secret': alice.secret })).status).toBe(401)
    expect((await rawRequest(port, { path: '/', headers: { cookie: `${bob.cookie}; ${alice.cookie}` } })).status).toBe(401)
    // Another port's own cookie is another name, not a second one of ours.
    expect(await whoAmI({ cookie: `arbiter_${port + 1}=x; ${alice.cookie}`, 'x-arbiter-secret': alice.secret })).toBe('alice')
  })
})

describe('web session: expiry and sign-out', () => {
  it('ends a session idle for its lifetime; each call starts the idle time again', async () => {
    const alice = await signIn(port, tokenOf('alice'))
    now += IDLE_MS - 1000
    expect(await whoAmI(sessionHeaders(alice))).toBe('alice')
    now += IDLE_MS - 1000 // idle less than the lifetime since that call
    expect(await whoAmI(sessionHeaders(alice))).toBe('alice')
    now += IDLE_MS + 1
    const expired = await call('settings.get', sessionHeaders(alice))
    expect(expired.status).toBe(401)
    expect(expired.headers['x-arbiter-login']).toBe('ended')
    // It stays ended, even if the clock went back; the page says so.
    now -= IDLE_MS
    expect(await whoAmI(sessionHeaders(alice))).toBe('status 401')
    const page = await rawRequest(port, { path: '/', headers: { cookie: alice.cookie, accept: 'text/html' } })
    expect(page.status).toBe(401)
    expect(page.body).toContain('session ended')
    // Loading a page does not keep a session alive (a stolen cookie could): only calls do.
    const bob = await signIn(port, tokenOf('bob'))
    now += IDLE_MS - 1000
    expect((await rawRequest(port, { path: '/', headers: { cookie: bob.cookie } })).status).toBe(200)
    now += 2000
    expect(await whoAmI(sessionHeaders(bob))).toBe('status 401')
    // The login link signs in again.
    expect(await whoAmI(sessionHeaders(await signIn(port, tokenOf('bob'))))).toBe('bob')
  })

  it('signs out: the session is revoked server-side, its cookie cleared and its event stream closed; other sessions hold', async () => {
    const alice = await signIn(port, tokenOf('alice'))
    const other = await signIn(port, tokenOf('alice')) // alice's other browser
    const stream = await fetch(`http://127.0.0.1:${port}/api/events`, { headers: sessionHeaders(alice) })
    expect(stream.status).toBe(200)
    const reader = stream.body!.getReader()
    await reader.read() // ': connected'

    const out = await signOut(alice)
    expect(out.status).toBe(200)
    expect(String(out.headers['set-cookie'])).toMatch(new RegExp(`^arbiter_${port}=;.*Max-Age=0`))
    expect((await reader.read()).done).toBe(true)
    const after = await call('settings.get', sessionHeaders(alice))
    expect(after.status).toBe(401)
    expect(after.headers['x-arbiter-login']).toBe('ended')
    expect((await rawRequest(port, { path: '/', headers: { cookie: alice.cookie } })).status).toBe(401)
    expect(await whoAmI(sessionHeaders(other))).toBe('alice')
    // A token caller has no browser session to end.
    expect((await rawRequest(port, { method: 'POST', path: '/session/end', headers: { authorization: `Bearer ${tokenOf('bob')}` } })).status).toBe(400)
  })
})

describe('web session: the login link exchange', () => {
  const link = (reviewer: string) => `/?token=${encodeURIComponent(tokenOf(reviewer))}`

  it('signs in on a typed or pasted link (Sec-Fetch-Site: none), refuses other sites, asks when the browser says nothing', async () => {
    const typed = await rawRequest(port, { path: link('alice'), headers: { 'sec-fetch-site': 'none' } })
    expect(typed.status).toBe(302)
    expect(typed.headers['set-cookie']).toBeDefined()
    for (const site of ['cross-site', 'same-site']) {
      const forced = await rawRequest(port, { path: link('alice'), headers: { 'sec-fetch-site': site } })
      expect(forced.status).toBe(403)
      expect(forced.headers['set-cookie']).toBeUndefined()
    }
    // No fetch metadata (an old browser, or a tool): a page asks; nothing is set until its form posts back.
    const ask = await rawRequest(port, { path: link('alice') })
    expect(ask.status).toBe(200)
    expect(ask.headers['set-cookie']).toBeUndefined()
    expect(ask.body).toContain('Sign in as alice')
    const form = { 'content-type': 'application/x-www-form-urlencoded' }
    const body = `token=${encodeURIComponent(tokenOf('alice'))}`
    expect((await rawRequest(port, { method: 'POST', path: '/session', headers: form, body })).status).toBe(403)
    const confirmed = await rawRequest(port, { method: 'POST', path: '/session', headers: { ...form, ...origin() }, body })
    expect(confirmed.status).toBe(303)
    const secret = /#arbiter-secret=([A-Za-z0-9_-]+)$/.exec(String(confirmed.headers.location))![1]
    const cookie = String(confirmed.headers['set-cookie']).split(';')[0]
    expect(await whoAmI({ cookie, 'x-arbiter-secret': secret })).toBe('alice')
  })

  it('opening the same login’s link again hands back the session it has (other tabs keep working)', async () => {
    const alice = await signIn(port, tokenOf('alice'))
    const again = await rawRequest(port, { path: link('alice'), headers: { 'sec-fetch-site': 'none', cookie: alice.cookie } })
    expect(again.status).toBe(302)
    expect(again.headers['set-cookie']).toBeUndefined()
    expect(again.headers.location).toBe(`/#arbiter-secret=${alice.secret}`)
  })
})
