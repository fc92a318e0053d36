/**
 * A task at the size limits stays usable: its question, candidates and move texts
 * are each 200,000 characters (over a megabyte of text in one task). Review opens it, long texts show
 * collapsed with an expander that answers a click, and the page never blocks its main thread for a
 * second or more (no long task ≥ 1 s while opening, expanding and scrolling).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { ConsoleServer } from '../../src/main/console-server'
import { createDemoDatabase } from '../../src/main/service/demo'
import { CHROMIUM, openConsole, SCHEMES, SHOTS, type OpenConsole } from './browser'
import { describeWith } from '../helpers/prerequisites'
import { seedTracesAt } from '../helpers/seed'

const TASK = 'long-text-task'
const LONG = 200_000
/** Text that wraps like prose (words and spaces), with the given marker first. */
const prose = (marker: string): string => `${marker} ${'lorem ipsum dolor sit amet '.repeat(Math.ceil(LONG / 27))}`.slice(0, LONG)

let dir: string
let open: OpenConsole | undefined
let server: ConsoleServer
let page: Page
let pageErrors: string[]

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'arbiter-e2e-long-text-'))
  const dbLocation = join(dir, 'arbiter.db')
  await createDemoDatabase(dbLocation)
  const candidates = ['A', 'B', 'C'].map((c) => prose(`candidate-${c}`))
  const moves = [0, 1, 2].map((i) => ({ id: `m${i}`, round: 0, seat: `S${i}`, force: 'propose' as const, answer: candidates[i], text: prose(`move-${i}`) }))
  await seedTracesAt(dbLocation, [{ task: TASK, question: prose('question'), candidates, moves }])
  open = await openConsole(dbLocation)
  ;({ server, page, pageErrors } = open)
})

afterAll(async () => {
  await open?.close()
  rmSync(dir, { recursive: true, force: true })
})

/** Starts recording long tasks in the page; the returned function reads the longest so far (ms). */
async function watchLongTasks(p: Page): Promise<() => Promise<number>> {
  await p.evaluate(() => {
    const w = globalThis as unknown as { __longest: number }
    w.__longest = 0
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.__longest = Math.max(w.__longest, e.duration)
    }).observe({ type: 'longtask' as never, buffered: false })
  })
  return () => p.evaluate(() => (globalThis as unknown as { __longest: number }).__longest)
}

describeWith(CHROMIUM, 'a task of over a megabyte of text in Review', () => {
  it('opens with long texts collapsed, expands one on a click, and never blocks the page for a second', async () => {
    const longest = await watchLongTasks(page)
    const t0 = Date.now()
    await page.goto(`${server.host.url}#/review/${encodeURIComponent(TASK)}`)
    await page.locator(`[data-testid="review-task"][data-task-id="${TASK}"]`).waitFor({ timeout: 10_000 })
    const openMs = Date.now() - t0
    const watchAgain = await watchLongTasks(page) // the navigation replaced the page's observer
    const expanders = page.getByTestId('text-expand')
    expect(await expanders.count()).toBeGreaterThanOrEqual(4) // the question and each move text
    const shown = await page.evaluate("document.body.innerText.length") as number
    expect(shown).toBeLessThan(100_000) // collapsed: not a megabyte of text laid out at once
    for (const scheme of SCHEMES) {
      await page.emulateMedia({ colorScheme: scheme })
      await page.screenshot({ path: join(SHOTS, `review-long-text-collapsed-1440-${scheme}.png`) })
    }
    const first = expanders.first()
    const c0 = Date.now()
    await first.click()
    await expect.poll(async () => first.getAttribute('aria-expanded'), { timeout: 5000 }).toBe('true')
    const clickMs = Date.now() - c0
    await page.mouse.wheel(0, 20_000)
    await page.waitForTimeout(300)
    for (const scheme of SCHEMES) {
      await page.emulateMedia({ colorScheme: scheme })
      await page.screenshot({ path: join(SHOTS, `review-long-text-expanded-1440-${scheme}.png`) })
    }
    console.log(`[long-text] open ${openMs} ms, expand ${clickMs} ms, longest task ${Math.round(Math.max(await longest(), await watchAgain()))} ms`)
    expect(await watchAgain()).toBeLessThan(1000)
    expect(clickMs).toBeLessThan(3000)
    expect(pageErrors).toEqual([])
  })
})
