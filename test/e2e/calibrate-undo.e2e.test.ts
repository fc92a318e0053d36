/**
 * Undo in Calibrate acts on the task on screen only, on the demo database in Chromium: after a blind
 * label on A and a move to B, Undo (the key and the button) on B never reaches back to A's label; on
 * B it takes B's label back to be changed on the same draw, and a second Undo still leaves A alone.
 * Skip moves on from a draw, counted and capped, and Audit shows each reviewer's draws and skips.
 * Screenshots: the "nothing to undo here" notice and Audit's skips, light and dark, 1440 and 1024 wide.
 */
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { ConsoleServer } from '../../src/main/console-server'
import { CHROMIUM, openDemoConsole, SCHEMES, SHOTS, WIDTHS, type OpenConsole } from './browser'
import { describeWith } from '../helpers/prerequisites'

const SOON = { timeout: 5000 }

let open: OpenConsole | undefined
let server: ConsoleServer
let page: Page
let pageErrors: string[]

beforeAll(async () => {
  open = await openDemoConsole('calibrate-undo')
  ;({ server, page, pageErrors } = open)
})

afterAll(async () => {
  await open?.close()
})

const detailOf = (taskId: string) => server.service.handlers['task.detail']({ taskId, blind: false }, server.service.context())
/** The task's live labels as [label, source]. */
const liveLabels = async (taskId: string) => (await detailOf(taskId)).labels.filter((l) => l.label !== null).map((l) => [l.label, l.source])
const onScreen = () => page.getByTestId('review-task').getAttribute('data-task-id', { timeout: 1000 })
async function armedTask(): Promise<string> {
  await page.locator('[data-testid="review-task"][data-keys-armed="true"]').waitFor(SOON)
  return (await onScreen())!
}

async function screenshots(name: string, ready: () => Promise<unknown>): Promise<void> {
  for (const width of WIDTHS) {
    for (const scheme of SCHEMES) {
      await page.setViewportSize({ width, height: width === 1440 ? 900 : 700 })
      await page.emulateMedia({ colorScheme: scheme })
      await ready()
      await page.screenshot({ path: join(SHOTS, `${name}-${width}-${scheme}.png`) })
    }
  }
  await page.setViewportSize({ width: 1440, height: 900 })
  await page.emulateMedia({ colorScheme: 'light' })
}

describeWith(CHROMIUM, 'Calibrate undo acts on the task on screen only (Chromium, demo database)', () => {
  it('never takes back an earlier task’s blind label, by key or button, before or after a change of the task on screen', async () => {
    await page.goto(`${server.host.url}#/calibrate`)
    const a = await armedTask()
    await page.keyboard.press('1')
    await page.locator(`[data-testid="calibrate-undo-bar"][data-task-id="${a}"]`).waitFor(SOON)
    const aLabel = (await detailOf(a)).task.candidates[0]
    expect(await liveLabels(a)).toEqual([[aLabel, 'random']])
    await page.keyboard.press('Enter')
    await expect.poll(onScreen, SOON).not.toBe(a)
    const b = await armedTask()

    // B has no label yet: Undo has nothing to act on here, and says so; A's label stays.
    await page.keyboard.press('Backspace')
    // Whatever the console says about it, A keeps its label and B stays on screen.
    await page.getByTestId('toast').first().waitFor(SOON)
    expect(await liveLabels(a)).toEqual([[aLabel, 'random']])
    expect(await onScreen()).toBe(b)
    await page.getByTestId('toast').filter({ hasText: 'Nothing to undo on this task' }).first().waitFor(SOON)
    await page.getByTestId('calibrate-undo').click()
    await screenshots('calibrate-undo-nothing', () => page.getByTestId('toast').filter({ hasText: 'Nothing to undo on this task' }).first().waitFor(SOON))
    expect(await onScreen()).toBe(b)
    expect(await page.getByTestId('verdict-hidden').count()).toBe(1)
    expect(await liveLabels(a)).toEqual([[aLabel, 'random']])
    expect(await liveLabels(b)).toEqual([])

    // B labeled, then Undo twice: the first takes B's label back to be changed, the second has
    // nothing more on screen to act on — A's label is never reached.
    await page.keyboard.press('1')
    await page.locator(`[data-testid="calibrate-undo-bar"][data-task-id="${b}"]`).waitFor(SOON)
    await page.keyboard.press('Backspace')
    await page.getByTestId('calibrate-changing').waitFor(SOON)
    await page.keyboard.press('Backspace')
    await page.getByTestId('calibrate-undo').click()
    expect(await onScreen()).toBe(b)
    expect(await liveLabels(a)).toEqual([[aLabel, 'random']])

    // The change lands on B, on its draw, blind; A is untouched.
    await armedTask()
    await page.keyboard.press('2')
    await page.locator(`[data-testid="calibrate-undo-bar"][data-task-id="${b}"]`).waitFor(SOON)
    const bLabel = (await detailOf(b)).task.candidates[1]
    await expect.poll(() => liveLabels(b), SOON).toEqual([[bLabel, 'random']])
    expect(await liveLabels(a)).toEqual([[aLabel, 'random']])
  })

  it('skips a draw with Skip (counted, capped) and shows the reviewer’s draws and skips on Audit', async () => {
    const me = server.service.context().reviewer
    // A fresh page: the draw labeled in the test before is moved on from, a new one is shown.
    await page.goto(`${server.host.url}#/calibrate`)
    await page.reload()
    const shown = await armedTask()
    expect(await page.getByTestId('verdict-hidden').count()).toBe(1)
    const skip = page.getByTestId('calibrate-skip')
    const left = Number(await skip.getAttribute('data-skips-left'))
    expect(left).toBeGreaterThan(0)
    await skip.click()
    await expect.poll(onScreen, SOON).not.toBe(shown)
    await expect.poll(() => skip.getAttribute('data-skips-left'), SOON).toBe(String(left - 1))
    expect(await liveLabels(shown)).toEqual([])

    await page.goto(`${server.host.url}#/audit`)
    const cell = page.locator(`[data-testid="audit-reviewer-skips"][data-reviewer="${me}"]`)
    // The audit summary is computed in a worker on the first open: give it the time it takes.
    await cell.waitFor({ timeout: 60_000 })
    expect(await cell.getAttribute('data-skips')).toBe('1')
    await screenshots('audit-reviewer-skips', () => cell.scrollIntoViewIfNeeded())
  }, 120_000)

  it('raised no page errors', () => {
    expect(pageErrors).toEqual([])
  })
})
