/**
 * The engine's rights in team mode, in Chromium with two logins on the demo database (`serve
 * --reviewer alice --reviewer carol --adjudicator carol`): the engine settings, a re-decide and a
 * rollback move every reviewer's verdicts, so only carol, the adjudicator, saves the settings or
 * rolls back a fit; alice's Settings and Audit say why she may not, and offer neither.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startConsoleServer, type ConsoleServer } from '../../src/main/console-server'
import { createDemoDatabase } from '../../src/main/service/demo'
import { describeWith } from '../helpers/prerequisites'
import { CHROMIUM, launchChromium, setDwell, SHOTS } from './browser'

const REVIEWERS = ['alice', 'carol'] as const
type Reviewer = (typeof REVIEWERS)[number]
const SOON = { timeout: 60_000 }

let dir: string
let server: ConsoleServer
let browser: Browser
const pages = {} as Record<Reviewer, Page>
const pageErrors: string[] = []

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'arbiter-e2e-engine-rights-'))
  const dbLocation = join(dir, 'arbiter.db')
  await createDemoDatabase(dbLocation)
  server = await startConsoleServer({ dbLocation, reviewers: REVIEWERS, adjudicators: ['carol'] })
  await setDwell(server, 0)
  const ctx = server.service.context()
  await server.service.handlers['engine.updateSettings']({ patch: { autoRefit: false } }, ctx)
  // Fits that decided otherwise than the current one, so Audit has a fit to roll back to.
  await server.service.handlers['fits.redecide']({ budget: { kind: 'absolute', beta: 0.3 } }, ctx)
  await server.service.handlers['fits.redecide']({ budget: { kind: 'absolute', beta: 0.2 } }, ctx)
  browser = await launchChromium()
  for (const reviewer of REVIEWERS) {
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } })
    const url = server.host.logins.find((l) => l.reviewer === reviewer)?.url
    if (url === undefined) throw new Error(`no login for ${reviewer}`)
    const page = await context.newPage()
    page.on('pageerror', (e) => pageErrors.push(`${reviewer}: ${String(e)}`))
    await page.goto(url)
    pages[reviewer] = page
  }
  mkdirSync(SHOTS, { recursive: true })
}, 180_000)

afterAll(async () => {
  await browser?.close()
  await server?.close()
  rmSync(dir, { recursive: true, force: true })
})

const go = (page: Page, hash: string) => page.goto(`${server.host.url}#/${hash}`)

describeWith(CHROMIUM, 'the engine’s rights over logins: the adjudicator’s only (Chromium, two logins)', () => {
  it('lets alice try engine values but not save them, and says why; carol saves', async () => {
    const alice = pages.alice
    await go(alice, 'settings')
    const locked = alice.getByTestId('settings-engine-locked')
    await locked.waitFor(SOON)
    expect(await locked.textContent()).toContain('only carol may')
    expect(await alice.getByTestId('settings-save').isDisabled()).toBe(true)
    // The fields stay editable: the what-if is a question anyone may ask.
    expect(await alice.getByTestId('settings-delta').isEditable()).toBe(true)
    await alice.emulateMedia({ colorScheme: 'light' })
    await alice.locator('form[aria-labelledby="engine-heading"]').screenshot({ path: join(SHOTS, 'engine-rights-settings-locked-light.png') })

    const carol = pages.carol
    await go(carol, 'settings')
    await carol.getByTestId('settings-save').waitFor(SOON)
    await expect.poll(() => carol.getByTestId('settings-save').isEnabled(), SOON).toBe(true)
    expect(await carol.getByTestId('settings-engine-locked').count()).toBe(0)
    await carol.getByTestId('settings-spot-rate').fill('0.05')
    await carol.getByTestId('settings-save').click()
    await expect.poll(async () => (await server.service.handlers['engine.getSettings']({}, server.service.context())).spotRate, SOON).toBe(0.05)
  })

  it('offers alice no rollback in Audit, saying why; carol has it', async () => {
    const alice = pages.alice
    await go(alice, 'audit')
    const panel = alice.getByTestId('fits-panel')
    await panel.waitFor({ timeout: 150_000 })
    await alice.getByTestId('fits-rollback-locked').waitFor(SOON)
    expect(await alice.getByTestId('fits-rollback-locked').textContent()).toContain('only carol may')
    await alice.getByTestId('fit-rollback-not-allowed').first().waitFor(SOON)
    expect(await alice.getByTestId('fit-rollback').count()).toBe(0)
    await panel.screenshot({ path: join(SHOTS, 'engine-rights-fits-locked-light.png') })

    const carol = pages.carol
    await go(carol, 'audit')
    await carol.getByTestId('fit-rollback').first().waitFor({ timeout: 150_000 })
    expect(await carol.getByTestId('fits-rollback-locked').count()).toBe(0)
  })

  it('raised no page errors', () => {
    expect(pageErrors).toEqual([])
  })
})
