/**
 * The login link in a real browser: the cookie Chromium keeps is a session id,
 * never the token; a page of another site (here: another port of 127.0.0.1) that navigates the
 * browser to bob's link does not switch alice's browser; alice opening bob's link herself is asked
 * first, and switches only when she confirms.
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
import { CHROMIUM, launchChromium } from './browser'
import { describeWith } from '../helpers/prerequisites'

let dir: string
let server: ConsoleServer
let browser: Browser
let hostile: Server
let hostilePort: number

const loginUrl = (reviewer: string): string => {
  const url = server.host.logins.find((l) => l.reviewer === reviewer)?.url
  if (url === undefined) throw new Error(`no login for ${reviewer}`)
  return url
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'arbiter-e2e-session-'))
  const dbLocation = join(dir, 'arbiter.db')
  await createDemoDatabase(dbLocation)
  server = await startConsoleServer({ dbLocation, reviewers: ['alice', 'bob'] })
  browser = await launchChromium()
  // Another service on 127.0.0.1 (another port: the same site, another origin) whose page sends
  // the browser to bob's login link.
  hostile = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html' })
    res.end(`<!doctype html><a id="go" href="${loginUrl('bob')}">a link</a>`)
  })
  await new Promise<void>((resolve) => hostile.listen(0, '127.0.0.1', () => resolve()))
  hostilePort = (hostile.address() as AddressInfo).port
})

afterAll(async () => {
  await browser?.close()
  await server?.close()
  await new Promise<void>((resolve) => (hostile ? hostile.close(() => resolve()) : resolve()))
  rmSync(dir, { recursive: true, force: true })
})

async function signedInAs(page: Page): Promise<string> {
  // The session secret the page keeps in its origin's storage, as the console's own calls send it.
  const secret = String((await page.evaluate('localStorage.getItem("arbiter.session-secret")')) ?? '')
  return page.evaluate(async (secret) => {
    const r = await fetch('/api/settings.get', { method: 'POST', headers: { 'content-type': 'application/json', 'x-arbiter-secret': secret }, body: '{}' })
    const body = (await r.json()) as { value?: { reviewer?: string } }
    return body.value?.reviewer ?? `status ${r.status}`
  }, secret)
}

describeWith(CHROMIUM, 'the login link in Chromium', () => {
  let context: BrowserContext
  let page: Page

  it('keeps a session id in the cookie, never the token', async () => {
    context = await browser.newContext({ viewport: { width: 1200, height: 800 } })
    page = await context.newPage()
    await page.goto(loginUrl('alice'))
    await page.getByTestId('nav-queue').waitFor()
    expect(await signedInAs(page)).toBe('alice')
    const cookies = await context.cookies(server.host.url)
    expect(cookies).toHaveLength(1)
    expect(cookies[0].name).toBe(`arbiter_${server.host.port}`)
    expect(cookies[0].httpOnly).toBe(true)
    const aliceToken = server.host.logins.find((l) => l.reviewer === 'alice')?.token as string
    expect(cookies[0].value).not.toBe(aliceToken)
    expect(decodeURIComponent(cookies[0].value)).not.toBe(aliceToken)
  })

  it('a link on another site does not switch the browser to another login', async () => {
    const before = (await context.cookies(server.host.url))[0].value
    await page.goto(`http://127.0.0.1:${hostilePort}/`)
    await page.click('#go')
    await page.waitForURL((u) => u.port === String(server.host.port))
    expect(await page.locator('h1').textContent()).toBe('Sign-in link refused')
    expect((await context.cookies(server.host.url))[0].value).toBe(before)
    await page.goto(server.host.url)
    expect(await signedInAs(page)).toBe('alice')
  })

  it('alice opening bob’s link herself is asked first, and switches only when she confirms', async () => {
    await page.goto(loginUrl('bob'))
    expect(await page.locator('h1').textContent()).toBe('Switch this browser to another login?')
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme })
      await page.screenshot({ path: `test-results/screenshots/session-switch-ask-${scheme}.png` })
    }
    await page.getByRole('link', { name: 'Stay signed in as alice' }).click()
    await page.getByTestId('nav-queue').waitFor()
    expect(await signedInAs(page)).toBe('alice')

    await page.goto(loginUrl('bob'))
    await page.getByRole('button', { name: 'Switch to bob' }).click()
    await page.getByTestId('nav-queue').waitFor()
    expect(await signedInAs(page)).toBe('bob')
    expect(new URL(page.url()).search).toBe('') // the token left the address bar
  })
})
