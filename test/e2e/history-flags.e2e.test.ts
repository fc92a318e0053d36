/**
 * Undo, the history panel and flags, on the demo database in Chromium:
 * - undo follows the reviewer, not the window — it survives a reload, works in Calibrate
 *   (on the task on screen: its blind label is changed on the same draw and stays blind), and
 *   never crosses screens (Backspace in Review leaves a Calibrate blind label alone); undo of a label
 *   whose task moved on since (another reviewer labeled it) is a conflict shown as such;
 * - the history panel lists the reviewer's last 20 labels from the store, across reloads;
 *   one click or `p` reopens one; a moved-on one is marked; a reopened blind label says that
 *   it belongs to the calibration set, and Review refuses a label over it;
 * - Flag / can't decide with a reason: a record, not a label; it hands the task back; the
 *   queue marks it and filters on it; progress counts it apart; it exports as arbiter.flags/1.
 * Screenshots of each changed screen: light and dark, 1440 and 1024 wide.
 */
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { CallContext } from '../../src/shared/api'
import type { ConsoleServer } from '../../src/main/console-server'
import { CHROMIUM, openDemoConsole, SCHEMES, SHOTS, WIDTHS, type OpenConsole } from './browser'
import { describeWith } from '../helpers/prerequisites'

/** Long enough for what the console does at once, short enough that an old build fails fast. */
const SOON = { timeout: 5000 }
/** What arrives through another window's write: its change event, coalesced, then a refetch (slower on a busy machine). */
const LIVE = { timeout: 10_000 }

let open: OpenConsole | undefined
let server: ConsoleServer
let page: Page
let pageErrors: string[]

beforeAll(async () => {
  open = await openDemoConsole('history-flags')
  ;({ server, page, pageErrors } = open)
})

afterAll(async () => {
  await open?.close()
})

/** The console's own reviewer (the browser's login), from another session: the same person in another window. */
const me = (): CallContext => ({ ...server.service.context(), sessionId: 'e2e-other-window' })
/** Another reviewer. */
const bob = (): CallContext => ({ ...server.service.context(), reviewer: 'bob', sessionId: 'e2e-bob-session' })

const detailOf = (taskId: string) => server.service.handlers['task.detail']({ taskId, blind: false }, server.service.context())
const liveLabelsOf = async (taskId: string) => (await detailOf(taskId)).labels.map((l) => [l.reviewer, l.label, l.source])
async function labelAs(ctx: CallContext, taskId: string, pick = 0, source: 'random' | 'escalation' = 'escalation') {
  const d = await detailOf(taskId)
  return server.service.handlers['labels.resolve']({ taskId, label: d.task.candidates[pick], expectedVersion: d.task.version, source, note: null }, ctx)
}

/**
 * A fresh unlabeled draw for the console's login: a labeled draw stands until the console moves on
 * from it, so this moves on from the login's current one (the next Calibrate page takes the new one over).
 */
async function freshDraw(): Promise<string> {
  const current = (await server.service.handlers['calibrate.draw']({ spotCheckOnly: false, after: null }, me())).taskId
  return (await server.service.handlers['calibrate.draw']({ spotCheckOnly: false, after: current }, me())).taskId as string
}

const shownTask = () => page.getByTestId('review-task').getAttribute('data-task-id', { timeout: 1000 })
/** The task on screen once its keys are armed (painted): what a reviewer can act on. */
async function armedTask(): Promise<string> {
  await page.locator('[data-testid="review-task"][data-keys-armed="true"]').waitFor(SOON)
  return (await shownTask())!
}

async function openReview(taskId: string): Promise<void> {
  await page.goto(`${server.host.url}#/review/${encodeURIComponent(taskId)}`)
  await expect.poll(shownTask, SOON).toBe(taskId)
  await armedTask()
}

/** Deferred tasks no one labeled or holds, in queue order, minus `except`. */
async function freeDeferred(n: number, except: readonly string[] = []): Promise<string[]> {
  const q = await server.service.handlers['queue.page'](
    { filter: { decision: 'defer', group: null, seat: null, candidate: null, labelSource: null, spotCheck: null, search: null }, sort: 'gap', direction: 'asc', offset: 0, limit: 300 },
    server.service.context()
  )
  return q.rows.filter((r) => r.label === null && r.state !== 'human' && r.reservedBy === null && !except.includes(r.taskId)).slice(0, n).map((r) => r.taskId)
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

const toastText = () => page.getByTestId('toast').last().textContent(SOON)
const conflictText = () => page.getByTestId('toast-conflict').last().textContent(SOON)

describeWith(CHROMIUM, 'undo follows the reviewer, not the window (Chromium, demo database)', () => {
  it('never crosses screens: Backspace in Review leaves a Calibrate blind label alone and reveals nothing', async () => {
    await page.goto(`${server.host.url}#/calibrate`)
    const blind = await armedTask()
    await page.keyboard.press('1')
    await page.getByTestId('posterior-bar').first().waitFor({ state: 'attached', ...SOON })
    expect(await liveLabelsOf(blind)).toEqual([[server.service.context().reviewer, expect.any(String), 'random']])

    const [task] = await freeDeferred(1, [blind])
    await openReview(task)
    await page.keyboard.press('Backspace')
    expect(await toastText()).toBe('Nothing of yours to undo in Review.')
    await page.waitForTimeout(500)
    expect(await shownTask()).toBe(task)
    expect((await liveLabelsOf(blind)).map(([, , source]) => source)).toEqual(['random'])
  })

  it('survives a reload: the label given before it is undone after it, and its task comes back', async () => {
    const [a] = await freeDeferred(1)
    await openReview(a)
    await page.keyboard.press('1')
    await expect.poll(shownTask, SOON).not.toBe(a)
    expect(await liveLabelsOf(a)).toHaveLength(1)
    await page.reload()
    await armedTask()
    await page.getByTestId('undo').and(page.locator(':enabled')).waitFor(SOON)
    await page.keyboard.press('Backspace')
    await expect.poll(shownTask, SOON).toBe(a)
    expect(await toastText()).toContain(`on ${a}.`)
    expect(await liveLabelsOf(a)).toEqual([])
  })

  it('works in Calibrate: the blind label of the task on screen is changed on its draw, and stays blind', async () => {
    await freshDraw()
    await page.goto(`${server.host.url}#/calibrate`)
    const blind = await armedTask()
    await page.getByTestId('verdict-hidden').waitFor(SOON)
    await page.keyboard.press('1')
    await page.getByTestId('posterior-bar').first().waitFor({ state: 'attached', ...SOON })
    await page.keyboard.press('Backspace')
    await page.getByTestId('calibrate-changing').waitFor(SOON)
    expect(await shownTask()).toBe(blind)
    // Not undone: the task stays in the calibration set until its replacement.
    expect((await liveLabelsOf(blind)).map(([, , source]) => source)).toEqual(['random'])
    await screenshots('calibrate-changing', () => page.getByTestId('calibrate-changing').waitFor())

    await armedTask()
    await page.keyboard.press('2')
    await page.getByTestId('calibrate-undo-bar').waitFor(SOON)
    const d = await detailOf(blind)
    expect(await liveLabelsOf(blind)).toEqual([[server.service.context().reviewer, d.task.candidates[1], 'random']])
    expect(await page.getByTestId('calibrate-escalated').count()).toBe(0)
  })

  it('shows undo of a label whose task moved on since as a conflict, and changes nothing', async () => {
    const [a] = await freeDeferred(1)
    await openReview(a)
    await page.keyboard.press('1')
    await expect.poll(shownTask, SOON).not.toBe(a)
    // The next task takes keys once it is painted, never before: a Backspace sent before is dropped.
    await armedTask()
    await labelAs(bob(), a, 1)
    const before = await liveLabelsOf(a)
    expect(before.map(([who]) => who)).toEqual([server.service.context().reviewer, 'bob'])
    await page.keyboard.press('Backspace')
    const text = await conflictText()
    expect(text).toContain(`${a} moved on since your label`)
    expect(text).toContain('bob labeled it')
    await page.waitForTimeout(300)
    expect(await liveLabelsOf(a)).toEqual(before)
    // The history marks it; reopened, the task says why the label can no longer be undone.
    await page.locator(`[data-testid="history-item"][data-task-id="${a}"][data-moved-on="true"]`).waitFor(LIVE)
    await openReview(a)
    await page.getByTestId('review-moved-on').waitFor(SOON)
    await screenshots('review-moved-on', () => page.getByTestId('review-moved-on').waitFor())
  })
})

describeWith(CHROMIUM, 'the history panel (Chromium, demo database)', () => {
  it('lists the reviewer’s last 20 labels from the store across reloads; one click or p reopens one', async () => {
    // 22 labels of this reviewer given in another window: the panel is the store's, not this window's.
    const tasks = await freeDeferred(22)
    for (const t of tasks) await labelAs(me(), t)
    const newest = [...tasks].reverse()
    const [open] = await freeDeferred(1)
    await openReview(open)
    const rows = () => page.getByTestId('history-item').evaluateAll((els) => els.map((e) => e.getAttribute('data-task-id')))
    await expect.poll(rows, LIVE).toEqual(newest.slice(0, 20))
    await page.reload()
    await armedTask()
    await expect.poll(rows, SOON).toEqual(newest.slice(0, 20))
    // `h` brings the panel into view with the newest row focused; Enter reopens it.
    await page.keyboard.press('h')
    expect(await page.evaluate(`document.activeElement?.closest('[data-testid="history-item"]')?.getAttribute('data-task-id')`)).toBe(newest[0])
    await screenshots('review-history', () => page.getByTestId('history-panel').scrollIntoViewIfNeeded())
    await page.keyboard.press('Enter')
    await expect.poll(shownTask, SOON).toBe(newest[0])
    await armedTask()
    // The shortcut sheet names the new keys.
    await page.keyboard.press('?')
    const sheet = page.getByRole('dialog', { name: 'Keyboard shortcuts' })
    for (const key of ['f', 'p', 'h']) await sheet.locator('th kbd', { hasText: new RegExp(`^${key}$`) }).waitFor(SOON)
    await screenshots('review-shortcuts', () => sheet.waitFor())
    await page.keyboard.press('Escape')
    await armedTask()

    // One click reopens a task; `p` reopens the latest label's task (not the one open).
    await page.locator(`[data-testid="history-item"][data-task-id="${newest[5]}"] a`).click()
    await expect.poll(shownTask, SOON).toBe(newest[5])
    await armedTask()
    await page.keyboard.press('p')
    await expect.poll(shownTask, SOON).toBe(newest[0])
    await armedTask()
    await page.keyboard.press('p')
    await expect.poll(shownTask, SOON).toBe(newest[1])

    // A blind label belongs to the calibration set: Review says so, and a label given there is
    // refused (only its labeler on the same draw, or an adjudicator, changes it).
    // A blind label is one of a task Calibrate drew for that session (the server keeps its draws).
    const blind = await freshDraw()
    await labelAs(me(), blind, 0, 'random')
    await openReview(blind)
    await page.getByTestId('review-own-random').waitFor(LIVE)
    await screenshots('review-own-random', () => page.getByTestId('review-own-random').waitFor())
    await page.keyboard.press('2')
    await page.getByTestId('toast-conflict').filter({ hasText: 'blind label' }).first().waitFor(SOON)
    expect((await liveLabelsOf(blind)).map(([, , source]) => source)).toEqual(['random'])
    const first = page.getByTestId('history-item').first()
    await expect.poll(() => first.getAttribute('data-task-id'), SOON).toBe(blind)
    await expect.poll(() => first.getAttribute('data-source'), SOON).toBe('random')
    await expect.poll(() => first.getAttribute('data-live'), SOON).toBe('true')
  })
})

describeWith(CHROMIUM, 'flag / can’t decide with a reason (Chromium, demo database)', () => {
  it('records the reason, not a label; hands the task back; marks, filters, counts apart and exports it', async () => {
    const [task] = await freeDeferred(1)
    await openReview(task)
    // The console holds the task while it is open; the flag hands it back.
    await expect.poll(async () => (await detailOf(task)).reservation?.reviewer ?? null, SOON).toBe(server.service.context().reviewer)
    // The action by its contract name (docs/architecture.md's testids), then by its key.
    await page.getByTestId('flag').click()
    await page.getByTestId('flag-dialog').waitFor(SOON)
    await page.keyboard.press('Escape')
    await page.getByTestId('flag-dialog').waitFor({ state: 'detached', ...SOON })
    await page.keyboard.press('f')
    await page.getByTestId('flag-dialog').waitFor(SOON)
    expect(await page.getByTestId('flag-submit').isDisabled()).toBe(true)
    await page.getByTestId('flag-reason').fill('Two readings of the question; needs a pharmacist')
    await screenshots('review-flag-dialog', () => page.getByTestId('flag-dialog').waitFor())
    await page.getByTestId('flag-submit').click()
    await expect.poll(shownTask, SOON).not.toBe(task)

    const d = await detailOf(task)
    expect(d.labels).toEqual([])
    expect(d.reservation).toBeNull()
    expect(d.flags.map((f) => [f.reviewer, f.reason])).toEqual([[server.service.context().reviewer, 'Two readings of the question; needs a pharmacist']])
    const progress = page.getByTestId('review-progress')
    expect(await progress.getAttribute('data-flagged')).toBe('1')
    expect(await page.getByTestId('review-progress-flagged').textContent()).toBe('1')
    expect(await page.title()).toContain('1 flagged')

    // The task stays in the queue, marked; the filter narrows to flagged tasks.
    await page.goto(`${server.host.url}#/queue`)
    await page.getByTestId('queue-search').fill(task)
    await page.locator(`[data-testid="queue-row"] >> text=${task}`).first().waitFor(SOON)
    expect(await page.getByTestId('queue-flag').first().getAttribute('data-flags')).toBe('1')
    await page.getByTestId('queue-search').fill('')
    await page.getByTestId('queue-filter-flagged').selectOption('flagged')
    await expect.poll(() => page.getByTestId('queue-row').count(), SOON).toBe(1)
    expect(await page.getByTestId('queue-flag').count()).toBe(1)
    await screenshots('queue-flagged', () => page.getByTestId('queue-flag').first().waitFor())
    await page.getByTestId('queue-filter-flagged').selectOption('any')

    // Reopened, the task shows who flagged it and why.
    await openReview(task)
    await page.getByTestId('task-flag').waitFor(SOON)
    expect(await page.getByTestId('task-flag').textContent()).toContain('Two readings of the question; needs a pharmacist')
    await screenshots('review-flagged-task', () => page.getByTestId('task-flags').waitFor())

    const out = await server.service.handlers['export.run']({ what: 'flags', filter: { decision: null, group: null, seat: null, candidate: null, labelSource: null, spotCheck: null, search: null }, format: 'jsonl', path: null }, server.service.context())
    expect(out.content!.trim().split('\n').map((l) => JSON.parse(l) as { task: string; reason: string })).toEqual([
      { task, reviewer: server.service.context().reviewer, reason: 'Two readings of the question; needs a pharmacist', at: d.flags[0].at }
    ])
    await page.goto(`${server.host.url}#/queue`)
    await page.getByTestId('export-flags').waitFor(SOON)
    expect(pageErrors).toEqual([])
  })
})
