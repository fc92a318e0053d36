/**
 * What Audit and Settings say about the engine, in Chromium on the demo database:
 * - Audit shows the live fit's acted share and mean stop round beside the held-out split
 *   evaluation, each titled for what it is, and marks the method in use;
 * - chart legends sit outside the plot areas; the drift axis is dated;
 * - consecutive fits that decided alike share a row, and Roll back is offered only to a fit that
 *   decided otherwise;
 * - the queue's counts say the spot-checks lie within acted + deferred;
 * - a refit that moved the queue is told on Queue, never over Audit; its toast lists only weights
 *   that moved at the precision shown;
 * - the what-if has a "now" for expected wrong actions, and at β = δ + ε_act it agrees with
 *   "What β means" (everything deferred).
 * Screenshots of Audit and Settings: light and dark, 1440 and 1024 wide.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { percent } from '../../src/shared/refit-change'
import type { ConsoleServer } from '../../src/main/console-server'
import { createDemoDatabase } from '../../src/main/service/demo'
import { CHROMIUM, openConsole, SCHEMES, SHOTS, WIDTHS, type OpenConsole } from './browser'
import { describeWith } from '../helpers/prerequisites'

const SOON = { timeout: 15_000 }
/** The audit (nested CV in a worker) and a refit: slower when the machine is busy. */
const SLOW = { timeout: 90_000 }
let dir: string
let open: OpenConsole | undefined
let server: ConsoleServer
let page: Page
let pageErrors: string[]

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'arbiter-e2e-audit-figures-'))
  const dbLocation = join(dir, 'arbiter.db')
  await createDemoDatabase(dbLocation)
  open = await openConsole(dbLocation)
  ;({ server, page, pageErrors } = open)
  // Each test refits when it means to.
  await call('engine.updateSettings', { patch: { autoRefit: false } })
}, 180_000)

afterAll(async () => {
  await open?.close()
  rmSync(dir, { recursive: true, force: true })
})

type H = ConsoleServer['service']['handlers']
const call = <M extends keyof H>(method: M, args: Parameters<H[M]>[0]) => server.service.handlers[method](args as never, server.service.context()) as ReturnType<H[M]>

async function screenshots(name: string, ready: () => Promise<unknown>): Promise<void> {
  for (const width of WIDTHS) {
    for (const scheme of SCHEMES) {
      await page.setViewportSize({ width, height: width === 1440 ? 900 : 700 })
      await page.emulateMedia({ colorScheme: scheme })
      await ready()
      await page.screenshot({ path: join(SHOTS, `${name}-${width}-${scheme}.png`), fullPage: true })
    }
  }
  await page.setViewportSize({ width: 1440, height: 900 })
  await page.emulateMedia({ colorScheme: 'light' })
}

async function openAudit(): Promise<void> {
  await page.goto(`${server.host.url}#/audit`)
  await page.getByTestId('audit-seats').waitFor({ timeout: 150_000 })
}

type Box = { x: number; y: number; width: number; height: number }
const overlaps = (a: Box, b: Box): boolean => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height

/** Every legend of the chart lies outside its plot area (the grid's box). */
async function legendOutsidePlot(chart: Locator): Promise<void> {
  const plot = await chart.locator('.recharts-cartesian-grid').boundingBox()
  expect(plot).not.toBeNull()
  const legends = chart.locator('.recharts-legend-wrapper')
  expect(await legends.count()).toBeGreaterThan(0)
  for (const legend of await legends.all()) {
    const box = await legend.boundingBox()
    expect(box).not.toBeNull()
    expect(overlaps(box!, plot!), `legend ${JSON.stringify(box)} over plot ${JSON.stringify(plot)}`).toBe(false)
  }
}

describeWith(CHROMIUM, 'Audit: the live fit beside the split evaluation, the method in use, charts, fits (Chromium, demo database)', () => {
  it('shows the live fit’s acted share and mean stop round beside the held-out split evaluation, each named', async () => {
    await openAudit()
    const summary = await call('audit.summary', {})
    const current = (await call('fits.list', { limit: 50 })).find((f) => f.current)!
    const change = await call('fits.change', { fitId: current.id })
    const live = page.getByTestId('audit-live-fit')
    await live.waitFor(SLOW)
    // The live figure is the current fit's own: what the refit notice and the queue count from.
    const liveAct = change.after.acted / change.after.decided
    expect(Number(await live.getAttribute('data-acted'))).toBeCloseTo(liveAct, 12)
    expect(await page.getByTestId('live-acted').textContent()).toBe(percent(liveAct))
    expect(Number(await live.getAttribute('data-rnd'))).toBeGreaterThan(0)
    expect(await live.textContent()).toMatch(/Live fit/)
    // The split evaluation says it is one, with its own figures.
    const split = page.getByTestId('audit-split-eval')
    expect(await split.textContent()).toMatch(/Held-out split evaluation/)
    expect(Number(await split.getAttribute('data-acted'))).toBeCloseTo(summary.actOrDefer.current!.act, 12)
    expect(await page.getByTestId('split-acted').textContent()).toBe(percent(summary.actOrDefer.current!.act))
  }, 180_000)

  it('marks the method in use in the method comparison', { timeout: 180_000 }, async () => {
    await openAudit()
    const current = (await call('fits.list', { limit: 50 })).find((f) => f.current)!
    const marked = page.locator('[data-testid="audit-methods"] tr[data-in-use="true"]')
    expect(await marked.count()).toBe(1)
    expect(await marked.getAttribute('data-method')).toBe(current.method)
    expect(await marked.getByTestId('method-in-use').textContent()).toBe('in use')
  })

  it('draws every legend outside its plot area, and dates the drift axis', { timeout: 240_000 }, async () => {
    await openAudit()
    await legendOutsidePlot(page.getByTestId('frontier-chart'))
    for (const d of await page.getByTestId('reliability-diagram').all()) await legendOutsidePlot(d)
    const drift = page.getByTestId('audit-drift-chart')
    for (const d of await drift.all()) {
      await legendOutsidePlot(d)
      // Times of day on the ticks carry their date in the axis title; a span of days has dates on the ticks.
      expect(await d.locator('.recharts-label').allTextContents()).toEqual(expect.arrayContaining([expect.stringMatching(/^label time( on [A-Z][a-z]{2} \d{1,2}|, [A-Z][a-z]{2} \d{1,2} – [A-Z][a-z]{2} \d{1,2}| \(date\))$/)]))
    }
    await screenshots('audit-live-and-split', () => page.getByTestId('audit-drift-chart').first().waitFor(SOON))
  })

  it('groups fits that decided alike and offers Roll back only to one that decided otherwise', async () => {
    // Re-decides under one budget decide alike; one under another does not.
    await call('fits.redecide', { budget: { kind: 'absolute', beta: 0.3 } })
    for (let i = 0; i < 2; i++) await call('fits.redecide', { budget: { kind: 'absolute', beta: 0.2 } })
    const fits = await call('fits.list', { limit: 50 })
    await openAudit()
    const rows = page.getByTestId('fit-row')
    // The list follows the fits as they land (the screen may have been open before them).
    await expect.poll(async () => (await rows.evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-fits'))))).reduce((a, b) => a + b, 0), SLOW).toBe(fits.length)
    const counts = (await rows.evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-fits'))))) as number[]
    expect(counts.reduce((a, b) => a + b, 0)).toBe(fits.length)
    expect(counts[0]).toBeGreaterThanOrEqual(2)
    expect(await rows.count()).toBeLessThan(fits.length)
    // Roll back only where it would change something.
    for (const row of await rows.all()) {
      const same = (await row.getAttribute('data-same-as-current')) === 'true'
      if (same) expect(await row.getByTestId('fit-rollback').count()).toBe(0)
    }
    expect(await page.locator('[data-testid="fit-row"][data-same-as-current="false"] [data-testid="fit-rollback"]').count()).toBeGreaterThan(0)
  }, 180_000)
})

describeWith(CHROMIUM, 'the queue’s counts, the refit notice and the what-if (Chromium, demo database)', () => {
  it('says the spot-checks lie within acted + deferred', async () => {
    await page.goto(`${server.host.url}#/queue`)
    await page.getByTestId('count-spot-check').waitFor(SOON)
    const counts = await call('app.counts', {})
    expect(Number(await page.getByTestId('count-spot-check').textContent())).toBe(counts.spotCheck)
    expect(await page.getByTestId('count-spot-check-note').textContent()).toBe('within acted + deferred')
    expect(counts.spotCheck).toBeLessThanOrEqual(counts.acted + counts.deferred)
  })

  it('keeps the "refit moved the queue" banner off Audit and tells it on Queue', async () => {
    await openAudit()
    const fit = await call('fits.redecide', { budget: { kind: 'absolute', beta: 0.3 } })
    const change = await call('fits.change', { fitId: fit.id })
    expect(change.before).not.toBeNull()
    expect(Math.abs(change.after.acted / change.after.decided - change.before!.acted / change.before!.decided)).toBeGreaterThanOrEqual(0.05)
    // Told while on Audit (the toast is not used for it), then shown by the screen the refit moved.
    await expect.poll(() => page.getByTestId('refit-summary').count(), { timeout: 3_000 }).toBe(0)
    await page.getByTestId('nav-queue').click()
    await page.locator(`[data-testid="refit-summary"][data-fit-id="${fit.id}"]`).waitFor(SLOW)
    // Back on Audit the banner is not drawn over it.
    await page.getByTestId('nav-audit').click()
    await page.getByTestId('audit-seats').waitFor({ timeout: 150_000 })
    expect(await page.getByTestId('refit-summary').count()).toBe(0)
    await page.getByTestId('nav-queue').click()
    await page.getByTestId('refit-summary-dismiss').click()
    expect(await page.getByTestId('refit-summary').count()).toBe(0)
  }, 300_000)

  it('toasts a refit that moved no weight at the shown precision without listing "1.74 → 1.74"', async () => {
    await page.goto(`${server.host.url}#/queue`)
    await page.getByTestId('count-tasks').waitFor(SOON)
    // The same budget again: the same fit, the same weights.
    const toast = page.getByTestId('toast').filter({ hasText: 'Refit landed' }).first()
    // Watched from before the refit: the toast lives a few seconds.
    const shown = toast.waitFor({ timeout: 90_000 })
    await call('fits.redecide', { budget: { kind: 'absolute', beta: 0.3 } })
    await shown
    const text = (await toast.textContent())!
    for (const m of text.matchAll(/(-?\d+\.\d\d) → (-?\d+\.\d\d)/g)) expect(m[1]).not.toBe(m[2])
    expect(text).toContain('no seat weight moved visibly')
  }, 120_000)

  it('gives the what-if a "now" for expected wrong actions, and agrees with "What β means" at β = δ + ε_act', async () => {
    await call('fits.redecide', { budget: { kind: 'absolute', beta: 0.2 } })
    const settings = await call('engine.getSettings', {})
    await page.goto(`${server.host.url}#/settings`)
    await page.locator('[data-testid="settings-what-if"][data-state]').waitFor(SOON)
    const beta = (settings.delta + settings.epsAct).toFixed(2)
    await page.getByTestId('settings-budget').click()
    await page.keyboard.press('ControlOrMeta+A')
    await page.keyboard.press('Backspace')
    await page.keyboard.type(beta)
    const expected = await call('fits.whatIf', { settings: { ...settings, budget: { kind: 'absolute', beta: Number(beta) } } })
    await page.locator('[data-testid="settings-what-if"][data-state="ready"][data-acted="0"]').waitFor(SOON)
    expect(expected.proposed!.acted).toBe(0)
    expect(await page.getByTestId('settings-what-if').textContent()).toContain('unreachable (α ≤ 0')
    // The meaning above says the same: nothing can act.
    const meaning = (await page.getByTestId('settings-budget-meaning').textContent())!
    expect(meaning).toContain('unreachable (α ≤ 0')
    // "Now": the current fit's expected wrong actions, as the main side reads them.
    expect(expected.current!.expectedWrong).toBeGreaterThan(0)
    expect(await page.getByTestId('what-if-wrong-now').textContent()).toContain(expected.current!.expectedWrong!.toFixed(1))
    await screenshots('settings-what-if-edge', () => page.getByTestId('what-if-wrong-now').waitFor(SOON))
  }, 120_000)

  it('raised no page errors', () => {
    expect(pageErrors).toEqual([])
  })
})
