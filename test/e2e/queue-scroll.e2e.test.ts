/**
 * Scrolling the queue (`npm run bench -- ui`: no long task while scrolling 99,000 queue rows): the queue asks
 * for no page that a fling only passes through, and still loads every page a wheel's pace brings into
 * view, on the demo database in Chromium (all 1,000 tasks listed: ten pages of 100).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createDemoDatabase } from '../../src/main/service/demo'
import { CHROMIUM, openConsole, SHOTS, type OpenConsole } from './browser'
import { describeWith } from '../helpers/prerequisites'

const SOON = { timeout: 5000 }

let dir: string
let open: OpenConsole | undefined
let page: Page
/** The offsets of the queue pages the page asked the server for, in order. */
const asked: number[] = []

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'arbiter-e2e-queue-scroll-'))
  const dbLocation = join(dir, 'arbiter.db')
  await createDemoDatabase(dbLocation)
  open = await openConsole(dbLocation)
  page = open.page
  page.on('request', (r) => {
    if (r.url().endsWith('/api/queue.page')) asked.push((r.postDataJSON() as { offset: number }).offset)
  })
})

afterAll(async () => {
  await open?.close()
  rmSync(dir, { recursive: true, force: true })
})

/** A fresh page (nothing cached) on the queue with every task listed (no decision filter), at its top, its first page loaded. */
async function everyTaskAtTop(): Promise<void> {
  await page.goto(`${open!.server.host.url}#/queue`)
  await page.reload()
  await page.getByTestId('queue-filter-decision').selectOption('')
  await expect.poll(() => page.locator('[role="grid"]').getAttribute('aria-rowcount'), SOON).toBe('1000')
  await page.getByTestId('queue-row').first().waitFor(SOON)
  await page.evaluate('document.querySelector(".queue-scroll").scrollTop = 0')
  // The virtualizer's scrolling flag clears 150 ms after the last scroll event.
  await page.waitForTimeout(300)
  asked.length = 0
}

/** Scrolls in `steps` steps of `px` each, `frames` animation frames apart; returns once the last step is painted. */
function scroll(steps: number, px: number, frames: number): Promise<unknown> {
  // A string, not a function: tsx would inject its __name helper, which the page does not have.
  return page.evaluate(`(async () => {
    const el = document.querySelector('.queue-scroll')
    const frame = () => new Promise((r) => requestAnimationFrame(() => r()))
    for (let i = 0; i < ${steps}; i++) {
      el.scrollTop += ${px}
      for (let f = 0; f < ${frames}; f++) await frame()
    }
  })()`)
}

/** The data-task-ids of the loaded rows at and after this row index (1-based, as aria-rowindex). */
const loadedFrom = (index: number) =>
  page.evaluate(`[...document.querySelectorAll('[data-testid="queue-row"]')].filter((r) => Number(r.getAttribute('aria-rowindex')) >= ${index}).map((r) => r.getAttribute('data-task-id'))`) as Promise<string[]>

describeWith(CHROMIUM, 'the queue while scrolling (Chromium, demo database)', () => {
  it('asks for no page a fling only passes through, and loads the rows where it stops', async () => {
    await everyTaskAtTop()
    // Nine jumps of a page (100 rows, 3,400 px: far more than a screen) two frames apart.
    await scroll(9, 100 * 34, 2)
    // The first jump may still ask at once (one jump is a key or a click on the track); the eight
    // after it, each a screen and more from the last, are a fling.
    expect(asked.filter((offset) => offset > 100).length).toBeLessThanOrEqual(1)
    // Stopped at row 900: its page loads once the scrolling flag clears.
    await expect.poll(async () => (await loadedFrom(905)).length, SOON).toBeGreaterThan(10)
    expect(asked).toContain(900)
    await page.screenshot({ path: join(SHOTS, 'queue-after-fling-1440-light.png') })
  })

  it('loads each page a wheel’s pace brings into view while it scrolls', async () => {
    await everyTaskAtTop()
    // 100 px a frame for 120 frames: 353 rows, into the fourth page.
    await scroll(120, 100, 1)
    // Pages 2 to 4 were asked for during the scroll, not after it stopped.
    expect(asked).toEqual(expect.arrayContaining([100, 200, 300]))
    expect(open!.pageErrors).toEqual([])
  })
})
