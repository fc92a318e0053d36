/**
 * Review, reopening and changing one's own labels, on the demo database in Chromium:
 * - a task reopened from the history (at the bottom of the page) opens at its top;
 * - a label's note shows in the history and on the reopened task;
 * - "N done this session" counts a task once, however often its label was changed;
 * - a second tab of the same reviewer says "you are reviewing this in another tab", and a key there
 *   never silently replaces the label the first tab gave.
 */
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { ConsoleServer } from '../../src/main/console-server'
import { CHROMIUM, openDemoConsole, SHOTS, type OpenConsole } from './browser'
import { describeWith } from '../helpers/prerequisites'

const SOON = { timeout: 5000 }
const LIVE = { timeout: 10_000 }

let open: OpenConsole | undefined
let server: ConsoleServer
let page: Page
let pageErrors: string[]

beforeAll(async () => {
  open = await openDemoConsole('review-reopen')
  ;({ server, page, pageErrors } = open)
})

afterAll(async () => {
  await open?.close()
})

const detailOf = (taskId: string) => server.service.handlers['task.detail']({ taskId, blind: false }, server.service.context())
async function freeDeferred(except: readonly string[] = []): Promise<string[]> {
  const q = await server.service.handlers['queue.page'](
    { filter: { decision: 'defer', group: null, seat: null, candidate: null, labelSource: null, spotCheck: null, search: null }, sort: 'gap', direction: 'asc', offset: 0, limit: 100 },
    server.service.context()
  )
  return q.rows.filter((r) => r.label === null && r.reservedBy === null && !except.includes(r.taskId)).map((r) => r.taskId)
}
const shownTask = (p: Page) => () => p.getByTestId('review-task').getAttribute('data-task-id', { timeout: 1000 }).catch(() => null)
const armed = (p: Page, taskId: string) => p.locator(`[data-testid="review-task"][data-task-id="${taskId}"][data-keys-armed="true"]`).waitFor(SOON)
async function openArmed(p: Page, taskId: string): Promise<void> {
  await p.goto(`${server.host.url}#/review/${encodeURIComponent(taskId)}`)
  await armed(p, taskId)
}
const done = () => page.getByTestId('review-progress').first().getAttribute('data-done', { timeout: 1000 }).catch((e: Error) => e.message.slice(0, 80))

describeWith(CHROMIUM, 'reopening and changing one’s own labels in Review', () => {
  it('opens a task reopened from the history at its top, shows the label’s note, and counts a changed label once', async () => {
    const [a] = await freeDeferred()
    await openArmed(page, a)
    await page.keyboard.press('1')
    await expect.poll(shownTask(page), SOON).not.toBe(a)
    await expect.poll(done, SOON).toBe('1')

    // The history row of a, at the bottom of the page, reopens a at its top.
    const rowOf = (taskId: string) => page.locator(`[data-testid="history-item"][data-task-id="${taskId}"]`)
    await rowOf(a).waitFor(LIVE)
    await page.evaluate('window.scrollTo(0, document.documentElement.scrollHeight)')
    expect(await page.evaluate('window.scrollY')).toBeGreaterThan(0)
    await rowOf(a).locator('a').click()
    await armed(page, a)
    await expect.poll(() => page.evaluate('window.scrollY'), SOON).toBe(0)

    // Changing the label: still one task done this session.
    await page.keyboard.press('2')
    await expect.poll(shownTask(page), SOON).not.toBe(a)
    const labels = (await detailOf(a)).labels
    expect(labels).toHaveLength(1)
    expect(labels[0].label).toBe((await detailOf(a)).task.candidates[1])
    await expect.poll(done, SOON).toBe('1')

    // A label of this reviewer's with a note (given in another window): the history shows the
    // note, and so does the task reopened from it.
    const [c] = await freeDeferred([a])
    const dc = await detailOf(c)
    await server.service.handlers['labels.resolve'](
      { taskId: c, label: dc.task.candidates[0], expectedVersion: dc.task.version, source: 'escalation', note: 'first look: the units differ' },
      { ...server.service.context(), sessionId: 'e2e-other-window' }
    )
    await expect.poll(() => rowOf(c).getByTestId('history-note').textContent({ timeout: 1000 }).catch(() => null), LIVE).toContain('first look: the units differ')
    await rowOf(c).locator('a').click()
    await armed(page, c)
    expect(await page.getByTestId('label-note').textContent(SOON)).toContain('first look: the units differ')
    await page.screenshot({ path: join(SHOTS, 'review-reopened-with-note-1440-light.png') })
    expect(pageErrors).toEqual([])
  })

  it('tells a second tab of the same reviewer that they hold the task elsewhere, and never replaces that tab’s label from it', async () => {
    const [x] = await freeDeferred()
    await openArmed(page, x)
    // Another tab of the same login (a context of its own signed in through the same login URL).
    const second = await (await open!.browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage()
    await second.goto(server.host.loginUrl)
    second.on('pageerror', (e) => pageErrors.push(String(e)))
    await openArmed(second, x)
    const notice = second.getByTestId('reserved-by')
    await notice.waitFor(SOON)
    expect(await notice.getAttribute('data-you')).toBe('true')
    expect(await notice.textContent()).toContain('You are reviewing this task in another tab')

    // The first tab labels it; the second, once it has heard, refuses its own key with a message.
    await page.keyboard.press('1')
    await expect.poll(shownTask(page), SOON).not.toBe(x)
    await expect.poll(() => second.getByTestId('reserved-by').count(), LIVE).toBe(0)
    await expect.poll(() => second.getByTestId('task-label').count(), LIVE).toBe(1)
    await second.keyboard.press('2')
    const toast = second.getByTestId('toast-conflict')
    await toast.waitFor(SOON)
    expect(await toast.textContent()).toContain('in another tab')
    const d = await detailOf(x)
    expect(d.labels.map((l) => l.label)).toEqual([d.task.candidates[0]])
    await second.close()
    expect(pageErrors).toEqual([])
  })
})
