/**
 * What keeps a console honest about where it stands, in Chromium: a team's login is never offered
 * "Start empty" (and the server refuses it); keyboard focus shows on the sidebar; a stale login link
 * opened in a fresh browser says what it is, in the console's style; a console whose server stopped
 * says what to do after a restart; a label lost while offline names its task.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startConsoleServer, type ConsoleServer } from '../../src/main/console-server'
import { DEMO_KEY } from '../../src/main/service/engine-settings'
import { openStore } from '../../src/main/store'
import { describeWith } from '../helpers/prerequisites'
import { exampleTraces, seedTraces, TEST_ACTOR } from '../helpers/seed'
import { CHROMIUM, launchChromium, setDwell, SHOTS } from './browser'

const SOON = { timeout: 15_000 }
let dir: string
let browser: Browser
const pageErrors: string[] = []

/** A small database marked as the demo (what "Start empty" would replace). */
async function demoMarked(name: string): Promise<{ dbLocation: string; tasks: string[] }> {
  const dbLocation = join(dir, name)
  const store = await openStore(dbLocation)
  try {
    await seedTraces(store, exampleTraces())
    await store.setSettings({ [DEMO_KEY]: { createdAt: new Date().toISOString(), seed: 0 } }, TEST_ACTOR)
  } finally {
    await store.close()
  }
  return { dbLocation, tasks: exampleTraces().map((t) => t.task) }
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'arbiter-e2e-safety-'))
  browser = await launchChromium()
  mkdirSync(SHOTS, { recursive: true })
})

afterAll(async () => {
  await browser?.close()
  rmSync(dir, { recursive: true, force: true })
})

describeWith(CHROMIUM, 'console safety (Chromium)', () => {
  it("offers a team's login no way to empty the shared demo, and the server refuses it", async () => {
    const { dbLocation, tasks } = await demoMarked('team.db')
    const server: ConsoleServer = await startConsoleServer({ dbLocation, reviewers: ['alice', 'bob'] })
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } })
    try {
      const page = await context.newPage()
      page.on('pageerror', (e) => pageErrors.push(String(e)))
      await page.goto(server.host.logins.find((l) => l.reviewer === 'bob')!.url)
      await page.getByTestId('demo-badge').waitFor(SOON)
      await page.getByTestId('count-tasks').waitFor(SOON)
      expect(await page.getByRole('button', { name: /Start empty/ }).count()).toBe(0)
      const secret = String((await page.evaluate('localStorage.getItem("arbiter.session-secret")')) ?? '')
      const refused = await page.evaluate(async (secret) => {
        const res = await fetch('/api/demo.startEmpty', {
          method: 'POST', credentials: 'same-origin', headers: { 'Content-Type': 'application/json', 'X-Arbiter-Session': 'bob-tab-00000001', 'X-Arbiter-Secret': secret }, body: '{}'
        })
        return (await res.json()) as { ok: boolean; error?: { code: string; message: string } }
      }, secret)
      expect(refused).toMatchObject({ ok: false, error: { code: 'unauthorized', message: expect.stringContaining('team mode') } })
      expect((await server.service.handlers['app.counts']({}, server.service.context())).tasks).toBe(tasks.length)
      await page.screenshot({ path: join(SHOTS, 'team-demo-no-start-empty-1440.png') })
    } finally {
      await context.close()
      await server.close()
    }
  })

  it('shows a focus ring on the sidebar link the keyboard is on', async () => {
    const { dbLocation } = await demoMarked('focus.db')
    const server = await startConsoleServer({ dbLocation })
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } })
    try {
      const page = await context.newPage()
      await page.goto(server.host.loginUrl)
      await page.getByTestId('nav-queue').waitFor(SOON)
      let focused = ''
      for (let i = 0; i < 10 && !focused.startsWith('nav-'); i++) {
        await page.keyboard.press('Tab')
        focused = (await page.evaluate("document.activeElement?.getAttribute('data-testid') ?? ''")) as string
      }
      expect(focused).toMatch(/^nav-/)
      const ring = (await page.evaluate(
        '(() => { const s = getComputedStyle(document.activeElement); return { style: s.outlineStyle, width: s.outlineWidth, shadow: s.boxShadow } })()'
      )) as { style: string; width: string; shadow: string }
      expect(ring.style !== 'none' && ring.width !== '0px' ? 'ring' : ring.shadow !== 'none' ? 'ring' : 'none').toBe('ring')
      await page.screenshot({ path: join(SHOTS, 'sidebar-focus-1440.png'), clip: { x: 0, y: 0, width: 400, height: 400 } })
    } finally {
      await context.close()
      await server.close()
    }
  })

  it('tells a fresh browser that an old login link is out of date, in the console style', async () => {
    const { dbLocation } = await demoMarked('old-link.db')
    const server = await startConsoleServer({ dbLocation })
    const context = await browser.newContext({ viewport: { width: 1024, height: 700 } })
    try {
      const page = await context.newPage()
      const res = await page.goto(`${server.host.url}?token=an-old-token-from-an-earlier-start-0123`)
      expect(res!.status()).toBe(401)
      const main = page.getByTestId('server-restarted')
      expect(await main.getAttribute('data-reason')).toBe('old-link')
      const text = await main.textContent()
      expect(text).toContain('out of date')
      // Never signed in here: it must not claim this browser's sign-in was lost.
      expect(text).not.toContain('this browser’s sign-in')
      // Styled: the page's own sheet applies (the console's header band and panel).
      const styled = (await page.evaluate(
        "({ header: getComputedStyle(document.querySelector('header')).backgroundColor, border: getComputedStyle(document.querySelector('main')).borderLeftWidth })"
      )) as { header: string; border: string }
      expect(styled.header).not.toBe('rgba(0, 0, 0, 0)')
      expect(styled.border).toBe('4px')
      await page.screenshot({ path: join(SHOTS, 'old-link-fresh-browser-1024.png') })
    } finally {
      await context.close()
      await server.close()
    }
  })

  it('says what to do when the server stops answering, and names the task of a label it could not save', async () => {
    const { dbLocation, tasks } = await demoMarked('offline.db')
    const server = await startConsoleServer({ dbLocation })
    // No reading time: the label key is pressed as soon as the task shows, as the other suites do.
    await setDwell(server, 0)
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } })
    let closed = false
    try {
      const page = await context.newPage()
      await page.goto(server.host.loginUrl)
      const task = tasks[0]!
      await page.goto(`${server.host.url}#/review/${encodeURIComponent(task)}`)
      await page.locator('[data-testid="review-candidate"][data-key="1"]').waitFor(SOON)
      await server.close()
      closed = true
      await page.keyboard.press('1')
      const toast = page.getByTestId('toast').filter({ hasText: 'Not saved' })
      await toast.waitFor(SOON)
      expect(await toast.textContent()).toContain(task)
      const banner = page.getByTestId('offline-banner')
      await banner.waitFor(SOON)
      const said = await banner.textContent()
      expect(said).toContain(server.host.url.replace(/\/$/, ''))
      expect(said).toContain('open the new address it printed')
      await page.screenshot({ path: join(SHOTS, 'offline-label-named-1440.png') })
    } finally {
      await context.close()
      if (!closed) await server.close()
    }
    expect(pageErrors).toEqual([])
  })
})
