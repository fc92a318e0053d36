/**
 * Two reviewers with their own logins (`serve --reviewer alice --reviewer bob`) in two browser
 * contexts: a task one has open shows "reserved by" to the other, whose resolve is
 * refused with a conflict toast naming the holder; "next" never lands on a task another holds;
 * Settings shows the login's name, locked; a closed tab gives its task back.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { QueueRow } from '../../src/shared/api'
import { startConsoleServer, type ConsoleServer } from '../../src/main/console-server'
import { createDemoDatabase } from '../../src/main/service/demo'
import { CHROMIUM, launchChromium, setDwell } from './browser'
import { describeWith } from '../helpers/prerequisites'

let dir: string
let server: ConsoleServer
let browser: Browser
const contexts: BrowserContext[] = []
const pageErrors: string[] = []

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'arbiter-e2e-reviewers-'))
  const dbLocation = join(dir, 'arbiter.db')
  await createDemoDatabase(dbLocation)
  server = await startConsoleServer({ dbLocation, reviewers: ['alice', 'bob'] })
  await setDwell(server, 0)
  browser = await launchChromium()
})

afterAll(async () => {
  await browser?.close()
  await server?.close()
  rmSync(dir, { recursive: true, force: true })
})

/** A browser context logged in as `reviewer` (its own cookie jar), and a first tab. */
async function loginAs(reviewer: string): Promise<{ context: BrowserContext; tab: () => Promise<Page> }> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } })
  contexts.push(context)
  const url = server.host.logins.find((l) => l.reviewer === reviewer)?.url
  if (url === undefined) throw new Error(`no login for ${reviewer}`)
  const first = await context.newPage()
  await first.goto(url)
  await first.close()
  return {
    context,
    tab: async () => {
      const page = await context.newPage()
      page.on('pageerror', (e) => pageErrors.push(String(e)))
      return page
    }
  }
}

const store = () => server.service
const holder = async (taskId: string) =>
  (await store().handlers['task.detail']({ taskId, blind: false }, store().context())).reservation?.reviewer ?? null
const open = async (page: Page, taskId: string) => {
  await page.goto(`${server.host.url}#/review/${encodeURIComponent(taskId)}`)
  // Armed: the task was painted, so its keys apply (a key typed before that is dropped by design).
  await page.locator(`[data-testid="review-task"][data-task-id="${taskId}"][data-keys-armed="true"]`).waitFor()
}
const shownTask = (page: Page) => () => page.getByTestId('review-task').getAttribute('data-task-id')

describeWith(CHROMIUM, 'two reviewers, two browser contexts', () => {
  it('shows who holds a task, refuses the other’s resolve, skips held tasks in “next”, and locks the login’s name', async () => {
    const ctx = store().context()
    await store().handlers['engine.updateSettings']({ patch: { autoRefit: false } }, ctx)
    const page0 = await store().handlers['queue.page']({ filter: { decision: 'defer', group: null, seat: null, candidate: null, labelSource: null, spotCheck: null, search: null }, sort: 'gap', direction: 'asc', offset: 0, limit: 10 }, ctx)
    const [x, y] = page0.rows.filter((r: QueueRow) => r.label === null).map((r) => r.taskId)

    const alice = await loginAs('alice')
    const bob = await loginAs('bob')
    const bobFirst = await bob.tab()
    await open(bobFirst, y) // bob holds the task that would be alice's "next"
    await expect.poll(() => holder(y)).toBe('bob')
    const alicePage = await alice.tab()
    await open(alicePage, x)
    await expect.poll(() => holder(x)).toBe('alice')
    expect(await alicePage.getByTestId('reserved-by').count()).toBe(0)

    // Bob's second tab deep-links to alice's task: he sees her hold, and his label is refused.
    const bobSecond = await bob.tab()
    await open(bobSecond, x)
    await expect(bobSecond.getByTestId('reserved-by').getAttribute('data-reviewer')).resolves.toBe('alice')
    await bobSecond.keyboard.press('1')
    await bobSecond.getByTestId('toast-conflict').waitFor()
    expect(await bobSecond.getByTestId('toast-conflict').textContent()).toContain('alice')
    expect(await store().handlers['task.detail']({ taskId: x, blind: false }, ctx)).toMatchObject({ labels: [] })

    // Alice resolves: "next" skips the task bob holds and lands on one she now holds.
    await alicePage.keyboard.press('1')
    await expect.poll(shownTask(alicePage)).not.toBe(x)
    const z = (await shownTask(alicePage)())!
    expect(z).not.toBe(y)
    expect(await holder(z)).toBe('alice')
    const labels = (await store().handlers['task.detail']({ taskId: x, blind: false }, ctx)).labels
    expect(labels.map((l) => l.reviewer)).toEqual(['alice'])
    // The task alice finished is free: bob's second tab may now take it (no banner after the change).
    await expect.poll(() => bobSecond.getByTestId('reserved-by').count()).toBe(0)

    // Bob's queue leaves out the task alice holds.
    await bobSecond.goto(`${server.host.url}#/queue`)
    await bobSecond.getByTestId('queue-row').first().waitFor()
    // Pages this tab fetched before alice took the task may show first; the live update drops it.
    await expect.poll(() => bobSecond.locator(`[data-testid="queue-row"][data-task-id="${z}"]`).count()).toBe(0)

    // Settings: bob's name comes from his login and cannot be edited.
    await bobSecond.goto(`${server.host.url}#/settings`)
    const field = bobSecond.getByTestId('settings-reviewer')
    await field.waitFor()
    expect(await field.inputValue()).toBe('bob')
    expect(await field.getAttribute('readonly')).not.toBeNull()
    await bobSecond.getByTestId('settings-reviewer-locked').waitFor()

    // Closing bob's first tab gives its task back.
    await bobFirst.close({ runBeforeUnload: true })
    await expect.poll(() => holder(y), { timeout: 10_000 }).toBeNull()
    expect(pageErrors).toEqual([])
  })
})
