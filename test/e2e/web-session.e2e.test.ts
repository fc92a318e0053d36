/**
 * The browser session in Chromium: a signed-in page calls and hears events with its session
 * secret; a new tab and a review link of the same browser work; the cookie another local port
 * receives does not call the API; Sign out ends the session for every tab.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startConsoleServer, type ConsoleServer } from '../../src/main/console-server'
import { createDemoDatabase } from '../../src/main/service/demo'
import { rawRequest } from '../helpers/http'
import { describeWith } from '../helpers/prerequisites'
import { CHROMIUM, launchChromium, setDwell, SHOTS } from './browser'

const SOON = { timeout: 15_000 }
let dir: string
let server: ConsoleServer
let browser: Browser
let context: BrowserContext
let page: Page
const pageErrors: string[] = []
/** Another service on 127.0.0.1 that records the cookies browsers send it (cookies ignore ports). */
let other: Server
let otherPort: number
const received: string[] = []

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'arbiter-e2e-web-session-'))
  const dbLocation = join(dir, 'arbiter.db')
  await createDemoDatabase(dbLocation)
  server = await startConsoleServer({ dbLocation })
  await setDwell(server, 0)
  other = createServer((req, res) => {
    received.push(String(req.headers.cookie ?? ''))
    res.writeHead(200, { 'Content-Type': 'text/html' })
    res.end('<!doctype html><title>another local service</title><p>hello</p>')
  })
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', () => resolve()))
  otherPort = (other.address() as AddressInfo).port
  browser = await launchChromium()
  context = await browser.newContext({ viewport: { width: 1440, height: 900 } })
  page = await context.newPage()
  page.on('pageerror', (e) => pageErrors.push(String(e)))
})

afterAll(async () => {
  await browser?.close()
  await server?.close()
  await new Promise<void>((resolve) => (other ? other.close(() => resolve()) : resolve()))
  rmSync(dir, { recursive: true, force: true })
})

async function firstTaskId(): Promise<string> {
  const q = await server.service.handlers['queue.page'](
    { filter: { decision: null, group: null, seat: null, candidate: null, labelSource: null, spotCheck: null, search: null }, sort: 'gap', direction: 'asc', offset: 0, limit: 1 },
    server.service.context()
  )
  return q.rows[0].taskId
}

describeWith(CHROMIUM, 'the browser session in Chromium', () => {
  it('signs in through the login URL: the secret leaves the address bar, calls and live events work', async () => {
    await page.goto(server.host.loginUrl)
    await page.getByTestId('count-tasks').waitFor(SOON)
    expect(new URL(page.url()).hash).toBe('') // the secret is not left in the address bar (nor in history)
    expect(new URL(page.url()).search).toBe('')
    // Events arrive over the stream that carries the secret: a settings change made elsewhere shows.
    await server.service.handlers['settings.update']({ patch: { theme: 'dark' } }, server.service.context())
    await expect.poll(() => page.evaluate('document.documentElement.dataset.theme'), SOON).toBe('dark')
    await server.service.handlers['settings.update']({ patch: { theme: 'light' } }, server.service.context())
    await expect.poll(() => page.evaluate('document.documentElement.dataset.theme'), SOON).toBe('light')
  })

  it('a new tab and a review link of the same browser are signed in', async () => {
    const tab = await context.newPage()
    await tab.goto(`${server.host.url}#/queue`)
    await tab.getByTestId('count-tasks').waitFor(SOON)
    const taskId = await firstTaskId()
    const review = await context.newPage()
    await review.goto(`${server.host.url}#/review/${encodeURIComponent(taskId)}`)
    await review.locator(`[data-testid="review-task"][data-task-id="${taskId}"]`).waitFor(SOON)
    await tab.close()
    await review.close()
  })

  it('the cookie another local port receives does not call the API', async () => {
    await page.goto(`http://127.0.0.1:${otherPort}/`)
    const cookie = received.at(-1) ?? ''
    expect(cookie).toContain(`arbiter_${server.host.port}=`) // the browser did send it to the other port
    const replay = await rawRequest(server.host.port, { method: 'POST', path: '/api/settings.get', headers: { cookie }, body: '{}' })
    expect(replay.status).toBe(401)
    const stream = await rawRequest(server.host.port, { path: '/api/events', headers: { cookie } })
    expect(stream.status).toBe(401)
    await page.goto(`${server.host.url}#/queue`)
    await page.getByTestId('count-tasks').waitFor(SOON)
  })

  it('Sign out ends the session for every tab of the browser; the login URL signs in again', async () => {
    const second = await context.newPage()
    await second.goto(`${server.host.url}#/queue`)
    await second.getByTestId('count-tasks').waitFor(SOON)
    const signOut = page.getByTestId('sign-out')
    await signOut.waitFor(SOON)
    await page.screenshot({ path: join(SHOTS, 'sign-out-sidebar-1440.png') })
    await signOut.click()
    const gone = page.getByTestId('server-restarted')
    await gone.waitFor(SOON)
    expect(await gone.getAttribute('data-reason')).toBe('signed-out')
    expect(await context.cookies(server.host.url)).toEqual([])
    await page.screenshot({ path: join(SHOTS, 'signed-out-page-1440.png') })
    // The other tab finds out by itself (its event stream closes) and says the session ended.
    const ended = second.getByTestId('server-restarted')
    await ended.waitFor(SOON)
    expect(await ended.getAttribute('data-reason')).toBe('ended')
    expect(await ended.textContent()).toContain('session ended')
    await second.screenshot({ path: join(SHOTS, 'session-ended-app-1440.png') })
    // A reload does not sign in by itself.
    const reloaded = await second.reload()
    expect(reloaded!.status()).toBe(401)
    await second.close()

    await page.goto(server.host.loginUrl)
    await page.getByTestId('count-tasks').waitFor(SOON)
    expect(pageErrors).toEqual([])
  })
})
