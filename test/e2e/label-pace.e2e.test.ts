/**
 * A label is the reviewer's choice, not a key's: on the demo database in Chromium,
 * - a held key's auto-repeat never labels: holding `1` on Review labels the task on screen and
 *   nothing after it; holding Enter in Calibrate labels the focused candidate once and stays on
 *   the verdict it revealed;
 * - a label key counts only once the task has been on screen for the reading time (Settings →
 *   `dwellMs`): a burst of presses right after a review link loads labels at most one task per
 *   reading time, and a press that came too soon is dropped with a hint — in Review and Calibrate;
 * - Settings changes the reading time.
 * Screenshots: the hint on Review and the Settings field, light and dark, 1440 and 1024 wide.
 */
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { ConsoleServer } from '../../src/main/console-server'
import { CHROMIUM, openDemoConsole, SCHEMES, setDwell, SHOTS, WIDTHS, type OpenConsole } from './browser'
import { describeWith } from '../helpers/prerequisites'

const SOON = { timeout: 5000 }
/** The reading time the pace tests run under: the default. */
const DWELL = 400

let open: OpenConsole | undefined
let server: ConsoleServer
let page: Page
let pageErrors: string[]

beforeAll(async () => {
  open = await openDemoConsole('label-pace')
  ;({ server, page, pageErrors } = open)
})

afterAll(async () => {
  await open?.close()
})

/** The labels recorded since `since` (an ISO time), oldest first. */
async function labelsSince(since: string) {
  const recent = await server.service.handlers['labels.recent']({ limit: 500 }, server.service.context())
  return recent.filter((l) => l.at >= since && l.label !== null).sort((a, b) => (a.at < b.at ? -1 : 1))
}
/** A full page load of `route`: the console reads the reading time afresh. */
let loads = 0
const load = (route: string, opts: { waitUntil?: 'commit' | 'load' } = {}) => page.goto(`${server.host.url}?load=${++loads}#/${route}`, opts)
const shownTask = () => page.getByTestId('review-task').getAttribute('data-task-id', { timeout: 1000 })
const ARMED = '[data-testid="review-task"][data-keys-armed="true"]'

async function firstDeferred(): Promise<string> {
  const q = await server.service.handlers['queue.page'](
    { filter: { decision: 'defer', group: null, seat: null, candidate: null, labelSource: null, spotCheck: null, search: null }, sort: 'gap', direction: 'asc', offset: 0, limit: 200 },
    server.service.context()
  )
  return q.rows.find((r) => r.label === null && r.reservedBy === null)!.taskId
}

/** Counts the keydown events the page sees with `repeat` set: proof that the hold was one. */
async function countRepeats(): Promise<void> {
  await page.evaluate(`(() => {
    window.__repeats = 0
    window.addEventListener('keydown', (e) => { if (e.repeat) window.__repeats++ }, true)
  })()`)
}

/** Holds `key` for about `ms`: one keydown, then the auto-repeat's keydowns (repeat = true) every 33 ms. */
async function hold(key: string, ms: number): Promise<void> {
  const until = Date.now() + ms
  await page.keyboard.down(key)
  while (Date.now() < until) {
    await page.waitForTimeout(33)
    await page.keyboard.down(key) // Playwright sends a key already down as an auto-repeat
  }
  await page.keyboard.up(key)
}

/**
 * Sends `key` the moment a task other than `from` is painted (its keys armed): a press no sooner
 * than the screen allows, on a loaded machine too. Returns that task's id once it was sent.
 */
async function pressOnPaint(key: string, from: string, trigger: () => Promise<void>): Promise<string> {
  await page.evaluate(`(() => {
    const from = ${JSON.stringify(from)}
    window.__pressedOn = null
    const obs = new MutationObserver(() => {
      const el = document.querySelector('[data-testid="review-task"][data-keys-armed="true"]')
      const id = el && el.getAttribute('data-task-id')
      if (!id || id === from || window.__pressedOn !== null) return
      window.__pressedOn = id
      window.dispatchEvent(new KeyboardEvent('keydown', { key: ${JSON.stringify(key)}, bubbles: true, cancelable: true }))
      obs.disconnect()
    })
    obs.observe(document.body, { subtree: true, childList: true, attributes: true })
  })()`)
  await trigger()
  await expect.poll(() => page.evaluate('window.__pressedOn'), SOON).not.toBeNull()
  return (await page.evaluate('window.__pressedOn')) as string
}

describeWith(CHROMIUM, 'a held key records one label (Chromium, demo database)', () => {
  it('holding 1 on Review for 1.2 s labels the task on screen only', async () => {
    await setDwell(server, 0)
    const task = await firstDeferred()
    await load(`review/${encodeURIComponent(task)}`)
    await page.locator(ARMED).waitFor(SOON)
    await countRepeats()
    const since = new Date().toISOString()
    await hold('1', 1200)
    await page.waitForTimeout(800)
    const labels = await labelsSince(since)
    expect(labels.map((l) => l.taskId)).toEqual([task])
    expect(await page.evaluate('window.__repeats')).toBeGreaterThan(5)
    expect(await shownTask()).not.toBe(task)
  })

  it('holding Enter in Calibrate labels the focused candidate once and stays on the verdict it revealed', async () => {
    await setDwell(server, 0)
    await load('calibrate')
    await page.locator(ARMED).waitFor(SOON)
    const task = (await shownTask())!
    await page.getByTestId('verdict-hidden').waitFor(SOON)
    await page.keyboard.press('ArrowRight')
    await countRepeats()
    const since = new Date().toISOString()
    await hold('Enter', 1200)
    await page.waitForTimeout(800)
    expect((await labelsSince(since)).map((l) => [l.taskId, l.source])).toEqual([[task, 'random']])
    // Still on the labeled task, its verdict shown: the repeats did not move on unread.
    expect(await shownTask()).toBe(task)
    expect(await page.getByTestId('verdict-hidden').count()).toBe(0)
    expect(await page.evaluate('window.__repeats')).toBeGreaterThan(5)
  })
})

describeWith(CHROMIUM, 'a label key counts only once the task was on screen for the reading time (Chromium, demo database)', () => {
  it('Settings sets the reading time', async () => {
    await setDwell(server, 0)
    await load('settings')
    const field = page.getByTestId('settings-dwell')
    await field.waitFor(SOON)
    expect(await field.inputValue()).toBe('0')
    await field.fill('6000')
    expect(await page.getByRole('button', { name: 'Save', exact: true }).isDisabled()).toBe(true)
    await field.fill(String(DWELL))
    await page.getByRole('button', { name: 'Save', exact: true }).click()
    await page.locator('form', { has: field }).getByText('Saved.').waitFor(SOON)
    expect((await server.service.handlers['settings.get']({}, server.service.context())).dwellMs).toBe(DWELL)
    for (const width of WIDTHS) {
      for (const scheme of SCHEMES) {
        await page.setViewportSize({ width, height: width === 1440 ? 900 : 700 })
        await page.emulateMedia({ colorScheme: scheme })
        await page.locator('form', { has: field }).screenshot({ path: join(SHOTS, `settings-dwell-${width}-${scheme}.png`) })
      }
    }
    await page.setViewportSize({ width: 1440, height: 900 })
    await page.emulateMedia({ colorScheme: 'light' })
  })

  it('15 presses 40 ms apart as a review link loads label at most one task per reading time; a press too soon shows the hint', async () => {
    await setDwell(server, DWELL)
    const task = await firstDeferred()
    const since = new Date().toISOString()
    const t0 = Date.now()
    await load(`review/${encodeURIComponent(task)}`, { waitUntil: 'commit' })
    for (let i = 0; i < 15; i++) {
      await page.keyboard.press('1')
      await page.waitForTimeout(40)
    }
    const elapsed = Date.now() - t0
    await page.waitForTimeout(600)
    const labels = await labelsSince(since)
    expect(labels.length).toBeLessThanOrEqual(Math.ceil(elapsed / DWELL))
    const times = labels.map((l) => Date.parse(l.at))
    for (let i = 1; i < times.length; i++) expect(times[i] - times[i - 1]).toBeGreaterThanOrEqual(DWELL)

    // A press the moment a task is painted is dropped and says why; once read, the same press labels.
    const shown = await pressOnPaint('1', (await shownTask())!, () => page.keyboard.press('s'))
    const hint = page.getByTestId('dwell-hint')
    await hint.waitFor(SOON)
    expect(await hint.textContent()).toContain('0.4 s minimum')
    expect((await labelsSince(since)).filter((l) => l.taskId === shown)).toEqual([])
    expect(await shownTask()).toBe(shown)
    for (const width of WIDTHS) {
      for (const scheme of SCHEMES) {
        await page.setViewportSize({ width, height: width === 1440 ? 900 : 700 })
        await page.emulateMedia({ colorScheme: scheme })
        await page.screenshot({ path: join(SHOTS, `review-dwell-hint-${width}-${scheme}.png`) })
      }
    }
    await page.setViewportSize({ width: 1440, height: 900 })
    await page.emulateMedia({ colorScheme: 'light' })
    await page.locator('[data-testid="review-task"][data-dwell-met="true"]').waitFor(SOON)
    await page.keyboard.press('1')
    await expect.poll(async () => (await labelsSince(since)).filter((l) => l.taskId === shown).length, SOON).toBe(1)
  })

  it('in Calibrate, a digit the moment the task is painted labels nothing and shows the hint; after the reading time it labels', async () => {
    await setDwell(server, DWELL)
    await load('calibrate')
    await page.locator('[data-testid="review-task"][data-dwell-met="true"]').waitFor(SOON)
    const first = (await shownTask())!
    const since = new Date().toISOString()
    await page.keyboard.press('1')
    await expect.poll(async () => (await labelsSince(since)).map((l) => l.taskId), SOON).toEqual([first])
    // Enter moves on from the verdict; a digit the moment the next task is painted is dropped.
    const task = await pressOnPaint('1', first, () => page.keyboard.press('Enter'))
    await page.getByTestId('dwell-hint').waitFor(SOON)
    expect(await shownTask()).toBe(task)
    expect((await labelsSince(since)).map((l) => l.taskId)).toEqual([first])
    expect(await page.getByTestId('verdict-hidden').count()).toBe(1)
    await page.locator('[data-testid="review-task"][data-dwell-met="true"]').waitFor(SOON)
    await page.keyboard.press('1')
    await expect.poll(async () => (await labelsSince(since)).map((l) => [l.taskId, l.source]), SOON).toEqual([[first, 'random'], [task, 'random']])
    expect(await page.getByTestId('dwell-hint').count()).toBe(0)
    expect(pageErrors).toEqual([])
  })
})
