/**
 * "Next" between two reviewers pressing quickly, in two browser contexts (`serve --reviewer alice
 * --reviewer bob`): it never hands out a task the other labeled since the reviewer's queue page was
 * read, a label refused because the other labeled the task a moment ago says who and moves on, and a
 * task the reviewer flagged is never offered back to them. Bob's live updates are cut so his page
 * stays as it was read — the race a quick pair of reviewers meets, without relying on its timing.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { CallContext, QueueRow } from '../../src/shared/api'
import { startConsoleServer, type ConsoleServer } from '../../src/main/console-server'
import { createDemoDatabase } from '../../src/main/service/demo'
import { CHROMIUM, launchChromium, setDwell } from './browser'
import { describeWith } from '../helpers/prerequisites'

const SOON = { timeout: 5000 }

let dir: string
let server: ConsoleServer
let browser: Browser
const contexts: BrowserContext[] = []
const pageErrors: string[] = []

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'arbiter-e2e-next-task-'))
  const dbLocation = join(dir, 'arbiter.db')
  await createDemoDatabase(dbLocation)
  server = await startConsoleServer({ dbLocation, reviewers: ['alice', 'bob'] })
  await setDwell(server, 0)
  await server.service.handlers['engine.updateSettings']({ patch: { autoRefit: false } }, server.service.context())
  browser = await launchChromium()
})

afterAll(async () => {
  await browser?.close()
  await server?.close()
  rmSync(dir, { recursive: true, force: true })
})

/** A tab signed in as `reviewer` (a browser context of its own: its own cookie jar). */
async function tabOf(reviewer: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } })
  contexts.push(context)
  const url = server.host.logins.find((l) => l.reviewer === reviewer)?.url
  if (url === undefined) throw new Error(`no login for ${reviewer}`)
  const page = await context.newPage()
  page.on('pageerror', (e) => pageErrors.push(String(e)))
  await page.goto(url)
  return page
}

/** `reviewer` acting from a window of their own, through the service: a label given elsewhere. */
const as = (reviewer: string): CallContext => ({ ...server.service.context(), reviewer, sessionId: `${reviewer}-elsewhere` })
const detailOf = (taskId: string) => server.service.handlers['task.detail']({ taskId, blind: false }, server.service.context())
async function labelAs(reviewer: string, taskId: string) {
  const d = await detailOf(taskId)
  await server.service.handlers['labels.resolve']({ taskId, label: d.task.candidates[0], expectedVersion: d.task.version, source: 'escalation', note: null }, as(reviewer))
}

/** The deferred tasks nobody labeled or holds, in the queue's default order (Review's "next" order). */
async function freeDeferred(): Promise<string[]> {
  const q = await server.service.handlers['queue.page'](
    { filter: { decision: 'defer', group: null, seat: null, candidate: null, labelSource: null, spotCheck: null, search: null }, sort: 'gap', direction: 'asc', offset: 0, limit: 100 },
    server.service.context()
  )
  return q.rows.filter((r: QueueRow) => r.label === null && r.reservedBy === null).map((r) => r.taskId)
}

const shownTask = (page: Page) => () => page.getByTestId('review-task').getAttribute('data-task-id', { timeout: 1000 }).catch(() => null)
async function openArmed(page: Page, taskId: string): Promise<void> {
  await page.goto(`${server.host.url}#/review/${encodeURIComponent(taskId)}`)
  await page.locator(`[data-testid="review-task"][data-task-id="${taskId}"][data-keys-armed="true"]`).waitFor(SOON)
}

describeWith(CHROMIUM, '"next" between two reviewers', () => {
  it('never offers a task the other labeled since the page was read; a label the other beat says who and moves on', async () => {
    const bob = await tabOf('bob')
    // Bob's page hears of no one's change: his queue page stays as he read it.
    await bob.route('**/api/events', (r) => r.abort())
    const [p, q] = await freeDeferred()
    const pageRead = bob.waitForResponse((r) => r.url().endsWith('/api/queue.page'))
    await openArmed(bob, p)
    await pageRead
    // Alice labels the task that comes after p in bob's page, a moment before bob presses.
    await labelAs('alice', q)
    await bob.keyboard.press('1')
    await expect.poll(shownTask(bob), SOON).not.toBe(p)
    await bob.locator('[data-testid="review-task"][data-keys-armed="true"]').waitFor(SOON)
    const landed = (await shownTask(bob)())!
    expect(landed).not.toBe(q)
    expect((await detailOf(landed)).labels).toEqual([])
    expect((await detailOf(q)).labels.map((l) => l.reviewer)).toEqual(['alice'])

    // Bob opens a task without a hold (his reserve is lost on the way) and alice labels it first:
    // his key is refused, the toast says alice labeled it, and his screen moves on.
    const [x] = (await freeDeferred()).filter((t) => t !== landed)
    await bob.route('**/api/task.reserve', (r) => (r.request().postDataJSON()?.seenVersion === undefined ? r.abort() : r.fallback()))
    await openArmed(bob, x)
    await labelAs('alice', x)
    await bob.keyboard.press('1')
    const toast = bob.getByTestId('toast-conflict')
    await toast.waitFor(SOON)
    expect(await toast.textContent()).toContain('alice labeled this task a moment ago — moved on')
    await expect.poll(shownTask(bob), SOON).not.toBe(x)
    expect((await detailOf(x)).labels.map((l) => l.reviewer)).toEqual(['alice'])
    expect(pageErrors).toEqual([])
  })

  it('never offers a task back to the reviewer who flagged it', async () => {
    const alice = await tabOf('alice')
    const [a] = await freeDeferred()
    await openArmed(alice, a)
    await alice.keyboard.press('f')
    await alice.getByTestId('flag-reason').fill('the question is ambiguous')
    await alice.getByTestId('flag-submit').click()
    await expect.poll(shownTask(alice), SOON).not.toBe(a)
    await alice.locator('[data-testid="review-task"][data-keys-armed="true"]').waitFor(SOON)

    // A new tab of hers opening Review picks the queue's first free task: never the one she flagged.
    const second = await alice.context().newPage()
    second.on('pageerror', (e) => pageErrors.push(String(e)))
    await second.goto(`${server.host.url}#/review`)
    await second.locator('[data-testid="review-task"][data-keys-armed="true"]').waitFor(SOON)
    expect(await shownTask(second)()).not.toBe(a)
    // Bob, who did not flag it, is offered it as usual.
    const bob = await tabOf('bob')
    await bob.goto(`${server.host.url}#/review`)
    await bob.locator('[data-testid="review-task"][data-keys-armed="true"]').waitFor(SOON)
    expect(await shownTask(bob)()).toBe(a)
    expect(pageErrors).toEqual([])
  })
})
