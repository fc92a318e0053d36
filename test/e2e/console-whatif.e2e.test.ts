/**
 * The what-if of a budget, a refit's news and Calibrate's commit, on the demo database in Chromium:
 * - before saving an absolute β, Settings says what it would do under the current fit —
 *   acted share, queue and expected wrong actions, read by the main side from the fit's stored
 *   bounds — and that a δ / bound / λ change needs a refit; after the refit, a summary;
 * - a refit that moves the acted share by ≥ 5 points or the queue by ≥ 5 % is said
 *   plainly (from what to what, the labels given since the previous fit, and a link that lists
 *   them) instead of a toast of weights; in Calibrate a key commits the blind label with no
 *   question asked, and a 3-second undo bar follows every blind commit.
 * Screenshots of each changed screen: light and dark, 1440 and 1024 wide.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { EngineSettings } from '../../src/shared/api'
import type { ConsoleServer } from '../../src/main/console-server'
import { createDemoDatabase } from '../../src/main/service/demo'
import { CHROMIUM, openConsole, SCHEMES, SHOTS, WIDTHS, type OpenConsole } from './browser'
import { describeWith } from '../helpers/prerequisites'

let dir: string
let open: OpenConsole | undefined
let server: ConsoleServer
let page: Page
let pageErrors: string[]
const dialogs: string[] = []

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'arbiter-e2e-whatif-'))
  const dbLocation = join(dir, 'arbiter.db')
  await createDemoDatabase(dbLocation)
  open = await openConsole(dbLocation)
  ;({ server, page, pageErrors } = open)
  // Any confirm / alert / prompt the console raises is recorded (and dismissed): Calibrate must ask none.
  page.on('dialog', (d) => {
    dialogs.push(`${d.type()}: ${d.message()}`)
    void d.dismiss()
  })
  // Background refits would move the queue under the tests; each test refits when it means to.
  await call('engine.updateSettings', { patch: { autoRefit: false } })
})

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

async function typeInto(testId: string, text: string): Promise<void> {
  await page.getByTestId(testId).click()
  await page.keyboard.press('ControlOrMeta+A')
  await page.keyboard.press('Backspace')
  await page.keyboard.type(text)
}

const whatIf = () => page.getByTestId('settings-what-if')

describeWith(CHROMIUM, 'the what-if before saving an absolute β (Chromium, demo database)', () => {
  it('says what β would do from the stored bounds, that δ needs a refit, and sums up the refit', async () => {
    const settings: EngineSettings = await call('engine.getSettings', {})
    expect(settings.budget).toEqual({ kind: 'absolute', beta: 0.2 })
    const counts = await call('app.counts', {})
    await page.goto(`${server.host.url}#/settings`)
    // As installed: the current fit's own figures.
    await page.locator(`[data-testid="settings-what-if"][data-state="ready"][data-acted="${counts.acted}"]`).waitFor()
    expect(await whatIf().getAttribute('data-queue')).toBe(String(counts.deferred))

    // A looser β: the figures are the main side's read of the stored bounds, shown as it gives them.
    const expected = await call('fits.whatIf', { settings: { ...settings, budget: { kind: 'absolute', beta: 0.3 } } })
    expect(expected.proposed!.acted).toBeGreaterThan(counts.acted)
    await typeInto('settings-budget', '0.3')
    await page.locator(`[data-testid="settings-what-if"][data-state="ready"][data-acted="${expected.proposed!.acted}"]`).waitFor()
    expect(await whatIf().getAttribute('data-queue')).toBe(String(expected.proposed!.queue))
    expect(Number(await whatIf().getAttribute('data-expected-wrong'))).toBe(expected.proposed!.expectedWrong)
    expect(await page.getByTestId('what-if-acted').textContent()).toContain(String(expected.proposed!.acted))
    expect(await page.getByTestId('what-if-queue').textContent()).toBe(String(expected.proposed!.queue))
    expect(await page.getByTestId('what-if-wrong').textContent()).toContain(expected.proposed!.expectedWrong.toFixed(1))
    await screenshots('settings-what-if', () => page.locator('[data-testid="settings-what-if"][data-state="ready"]').waitFor())

    // δ moves every bound: the stored ones cannot say, so it needs a refit.
    await typeInto('settings-delta', '0.05')
    await page.locator('[data-testid="settings-what-if"][data-state="needs-refit"]').waitFor()
    expect(await page.getByTestId('what-if-needs-refit').textContent()).toMatch(/Changing δ needs a refit/)
    expect(await whatIf().getAttribute('data-acted')).toBe('')
    await screenshots('settings-what-if-refit', () => page.locator('[data-testid="settings-what-if"][data-state="needs-refit"]').waitFor())
    // So does the bound.
    await typeInto('settings-delta', '0.03')
    await page.getByTestId('settings-bound').selectOption('hoeffding')
    // Only the bound now (δ is back as the fit ran it).
    await page.getByTestId('what-if-needs-refit').filter({ hasText: /^\s*Changing bound needs a refit/ }).waitFor()
    await page.getByTestId('settings-bound').selectOption('binomial')
    await page.locator(`[data-testid="settings-what-if"][data-state="ready"][data-acted="${expected.proposed!.acted}"]`).waitFor()

    // Saved: the refit (same labels, so the same bounds) acts on exactly what the what-if said, and says so.
    await page.getByTestId('settings-save').click()
    const summary = page.getByTestId('settings-refit-summary')
    await summary.waitFor({ timeout: 60_000 })
    const after = await call('app.counts', {})
    expect(after.acted).toBe(expected.proposed!.acted)
    expect(Number(await summary.getAttribute('data-acted-before'))).toBeCloseTo(counts.acted / (counts.acted + counts.deferred), 12)
    expect(Number(await summary.getAttribute('data-acted-after'))).toBeCloseTo(after.acted / (after.acted + after.deferred), 12)
    expect(await summary.getAttribute('data-queue-before')).toBe(String(counts.deferred))
    expect(await summary.getAttribute('data-queue-after')).toBe(String(after.deferred))
    expect(await summary.textContent()).toContain(`the queue from ${counts.deferred} to ${after.deferred} tasks`)
    // Settings says it itself: the "refit moved the queue" banner waits for Queue or Review instead of covering the form.
    expect(await page.getByTestId('refit-summary').count()).toBe(0)
    await screenshots('settings-refit-summary', () => summary.waitFor())
  })
})

describeWith(CHROMIUM, 'a refit that moves the queue is said plainly; Calibrate commits blind, then offers undo (Chromium, demo database)', () => {
  it('tells a refit that moves the acted share ≥ 5 points from what to what, with the labels given since and their list', async () => {
    await page.goto(`${server.host.url}#/queue`)
    // Back to β = 0.20 (the what-if test saved 0.30, which acts on every demo task): a queue to label from.
    const start = await call('fits.redecide', { budget: { kind: 'absolute', beta: 0.2 } })
    await page.locator(`[data-testid="refit-summary"][data-fit-id="${start.id}"]`).waitFor()
    await page.getByTestId('refit-summary-dismiss').click()
    await page.getByTestId('queue-row').first().waitFor()
    // Two labels from the queue, then a decide under another β: the acted share moves by far more than 5 points.
    const queue = await call('queue.page', { filter: { decision: 'defer', group: null, seat: null, candidate: null, labelSource: null, spotCheck: null, search: null }, sort: 'gap', direction: 'asc', offset: 0, limit: 2 })
    for (const r of queue.rows) {
      const d = await call('task.detail', { taskId: r.taskId, blind: false })
      await call('labels.resolve', { taskId: r.taskId, label: d.task.candidates[0], expectedVersion: d.task.version, source: 'escalation', note: null })
    }
    const before = await call('app.counts', {})
    const fit = await call('fits.redecide', { budget: { kind: 'absolute', beta: 0.3 } })
    const change = await call('fits.change', { fitId: fit.id })
    const banner = page.getByTestId('refit-summary')
    await page.locator(`[data-testid="refit-summary"][data-fit-id="${fit.id}"]`).waitFor()
    expect(await banner.getAttribute('data-notable')).toBe('true')
    expect(await banner.getAttribute('data-labels-since')).toBe('2')
    expect(Number(await banner.getAttribute('data-acted-before'))).toBeCloseTo(change.before!.acted / change.before!.decided, 12)
    expect(Number(await banner.getAttribute('data-acted-after'))).toBeCloseTo(change.after.acted / change.after.decided, 12)
    expect(Math.abs(change.after.acted / change.after.decided - change.before!.acted / change.before!.decided)).toBeGreaterThanOrEqual(0.05)
    expect(await banner.getAttribute('data-queue-after')).toBe(String((await call('app.counts', {})).deferred))
    expect(before.deferred).toBe(change.before!.deferred - 2) // the two labeled tasks left the old fit's queue
    const text = (await banner.textContent())!
    expect(text).toContain(`the queue from ${change.before!.deferred} to ${change.after.deferred} tasks`)
    expect(text).toContain('2 labels given since the previous fit')
    // No toast of weights for it.
    expect(await page.getByTestId('toast').filter({ hasText: 'Refit landed' }).count()).toBe(0)

    await page.getByTestId('refit-labels-link').click()
    await page.getByTestId('refit-label').first().waitFor()
    expect((await page.getByTestId('refit-label').evaluateAll((els) => els.map((e) => e.getAttribute('data-task-id')))).sort()).toEqual(queue.rows.map((r) => r.taskId).sort())
    await screenshots('refit-banner', () => page.getByTestId('refit-label').first().waitFor())
    // Each listed label opens its task.
    await page.getByTestId('refit-label').first().locator('a').click()
    await page.getByTestId('review-task').waitFor()
    await page.getByTestId('refit-summary-dismiss').click()
    expect(await banner.count()).toBe(0)

    // A refit that moves nothing stays a toast.
    const same = await call('fits.redecide', { budget: { kind: 'absolute', beta: 0.3 } })
    expect((await call('fits.change', { fitId: same.id })).after.acted).toBe(change.after.acted)
    await page.getByTestId('toast').filter({ hasText: 'Refit landed' }).first().waitFor()
    expect(await banner.count()).toBe(0)
  })

  it('commits a blind label at the key, asks nothing, and offers its undo for 3 seconds', async () => {
    const armed = page.locator('[data-testid="review-task"][data-keys-armed="true"]')
    const bar = page.getByTestId('calibrate-undo-bar')
    const liveLabels = async (taskId: string) => (await call('task.detail', { taskId, blind: false })).labels
    const onScreen = async () => (await page.getByTestId('review-task').getAttribute('data-task-id'))!
    /** The drawn task labeled blind by one key; its undo bar shown. */
    async function labelBlind(key: string): Promise<string> {
      await armed.waitFor()
      const task = await onScreen()
      await page.keyboard.press(key)
      await page.locator(`[data-testid="calibrate-undo-bar"][data-task-id="${task}"]`).waitFor()
      return task
    }
    /** Enter after a commit moves on to the next draw. */
    async function moveOn(from: string): Promise<void> {
      await page.keyboard.press('Enter')
      // The next draw is a round trip and a render: 1 s (the poll's default) is too tight on a loaded machine.
      await expect.poll(onScreen, { timeout: 5000 }).not.toBe(from)
    }

    await page.goto(`${server.host.url}#/calibrate`)
    const first = await labelBlind('1')
    // Committed at once, with no question in between.
    expect((await liveLabels(first)).map((l) => l.source)).toEqual(['random'])

    // Undo inside the 3 seconds: the task on screen takes a new label on the same draw (its blind
    // label stays until replaced, and the replacement is blind too); moving on draws another.
    await moveOn(first)
    const undone = await labelBlind('1')
    await page.getByTestId('calibrate-undo-bar-undo').click()
    await bar.waitFor({ state: 'detached' })
    await page.getByTestId('calibrate-changing').waitFor()
    expect(await onScreen()).toBe(undone)
    expect((await liveLabels(undone)).map((l) => l.source)).toEqual(['random'])
    await labelBlind('2')
    expect((await liveLabels(undone)).map((l) => [l.source, l.label])).toEqual([['random', (await call('task.detail', { taskId: undone, blind: false })).task.candidates[1]]])
    await moveOn(undone)

    // Left alone, the bar goes after 3 seconds and the label stays.
    const kept = await labelBlind('2')
    const shown = Date.now()
    await bar.waitFor({ state: 'detached', timeout: 6000 })
    expect(Date.now() - shown).toBeGreaterThan(2000)
    expect((await liveLabels(kept)).map((l) => l.source)).toEqual(['random'])
    expect(dialogs).toEqual([])

    // Every commit gets its bar: one fresh commit per screenshot (each outlives a bar).
    let last = kept
    await screenshots('calibrate-undo-bar', async () => {
      await moveOn(last)
      last = await labelBlind('1')
    })
  })

  it('moves on at an Enter pressed while the revealed task still loads (a hurried "1, Enter")', async () => {
    const onScreen = async () => (await page.getByTestId('review-task').getAttribute('data-task-id'))!
    await page.goto(`${server.host.url}#/calibrate`)
    await page.locator('[data-testid="review-task"][data-keys-armed="true"]').waitFor()
    const first = await onScreen()
    // The revealed detail (blind: false) is slowed: the blind one stays on screen meanwhile, keys live.
    await page.route('**/api/task.detail', async (route) => {
      if ((JSON.parse(route.request().postData() ?? '{}') as { blind?: boolean }).blind === false) await new Promise((r) => setTimeout(r, 1500))
      await route.continue().catch(() => {})
    })
    try {
      await page.keyboard.press('1')
      await page.locator(`[data-testid="calibrate-undo-bar"][data-task-id="${first}"]`).waitFor()
      await page.keyboard.press('Enter')
      await expect.poll(onScreen, { timeout: 10_000 }).not.toBe(first)
      expect((await call('task.detail', { taskId: first, blind: false })).labels.map((l) => l.source)).toEqual(['random'])
    } finally {
      await page.unroute('**/api/task.detail')
    }
  })

  it('raised no page errors', () => {
    expect(pageErrors).toEqual([])
  })
})
