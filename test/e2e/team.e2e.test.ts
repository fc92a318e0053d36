/**
 * Team mode end to end, three logins in three browser contexts on one SQLite file:
 * Settings → Team sets two reviewers per task (carol the adjudicator); alice labels every task
 * blind in Calibrate; bob draws the same tasks and sees neither her label nor the engine's verdict
 * until he commits his own, then sees hers — agreeing on three tasks, disagreeing on one; carol
 * rules on the disagreement in Adjudicate, which records an adjudicated label that becomes the
 * task's label; Audit shows Cohen's and Fleiss' κ of exactly those labels; a task open in Review
 * shows "reserved by" to the other reviewer. Screenshots of each screen go to test-results.
 *
 * The database holds only four tasks, all unlabeled, so Calibrate's uniform draw (its random
 * number comes from the OS) can only ever offer these four: bob is bound to meet every task alice
 * labeled, in whatever order the draws come.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startConsoleServer, type ConsoleServer } from '../../src/main/console-server'
import { demoCouncilConfig, generateCouncil } from '../../src/main/sim'
import { openStore, type Store } from '../../src/main/store'
import { seedTraces } from '../helpers/seed'
import { CHROMIUM, launchChromium, setDwell } from './browser'
import { describeWith } from '../helpers/prerequisites'

const SHOTS = join(__dirname, '../../test-results/screenshots')
const REVIEWERS = ['alice', 'bob', 'carol'] as const
type Reviewer = (typeof REVIEWERS)[number]

let dir: string
let dbLocation: string
let server: ConsoleServer
let browser: Browser
let tasks: string[] = []
const pages = {} as Record<Reviewer, Page>
const pageErrors: string[] = []

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'arbiter-e2e-team-'))
  dbLocation = join(dir, 'arbiter.db')
  // The demo council's true/false claims: readable questions, and one label set shared by every
  // task, so the κ below is over two categories.
  const traces = [...generateCouncil(demoCouncilConfig({ seed: 0, tasks: 24 }))].filter((t) => t.group === 'MedClaim').slice(0, 4)
  tasks = traces.map((t) => t.task).sort()
  const store = await openStore(dbLocation)
  try {
    await seedTraces(store, traces, 'team.trace.jsonl')
  } finally {
    await store.close()
  }
  // `serve --adjudicator carol`: with logins nobody adjudicates or changes the team settings until named.
  server = await startConsoleServer({ dbLocation, reviewers: REVIEWERS, adjudicators: ['carol'] })
  await setDwell(server, 0)
  const ctx = server.service.context()
  await server.service.handlers['engine.updateSettings']({ patch: { autoRefit: false } }, ctx)
  // A fit, so that Calibrate has a verdict to hide.
  await server.service.handlers['fits.run']({}, ctx)
  browser = await launchChromium()
  for (const reviewer of REVIEWERS) {
    // One context per reviewer: the login is a cookie, so each needs its own jar.
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } })
    const url = server.host.logins.find((l) => l.reviewer === reviewer)?.url
    if (url === undefined) throw new Error(`no login for ${reviewer}`)
    const page = await context.newPage()
    page.on('pageerror', (e) => pageErrors.push(`${reviewer}: ${String(e)}`))
    await page.goto(url)
    pages[reviewer] = page
  }
  mkdirSync(SHOTS, { recursive: true })
})

afterAll(async () => {
  await browser?.close()
  await server?.close()
  rmSync(dir, { recursive: true, force: true })
})

async function withStore<T>(fn: (store: Store) => Promise<T>): Promise<T> {
  const store = await openStore(dbLocation)
  try {
    return await fn(store)
  } finally {
    await store.close()
  }
}

const go = (page: Page, hash: string) => page.goto(`${server.host.url}#/${hash}`)
/** `page` (or one element of it) in both colour schemes: the theme follows the system's, in CSS. */
async function shot(page: Page, name: string, opts: { element?: Locator; fullPage?: boolean } = {}): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme })
    const path = join(SHOTS, `team-${name}-${scheme}.png`)
    await (opts.element ? opts.element.screenshot({ path }) : page.screenshot({ path, fullPage: opts.fullPage ?? false }))
  }
  await page.emulateMedia({ colorScheme: 'light' })
}

/** Waits for Calibrate's next draw after `previous`: its task id, or null once nothing is left. */
async function nextDraw(page: Page, previous: string | null): Promise<string | null> {
  const fresh = previous === null ? '[data-testid="review-task"]' : `[data-testid="review-task"]:not([data-task-id="${previous}"])`
  await page.locator(`${fresh}, .empty-state`).first().waitFor()
  if ((await page.locator('.empty-state').count()) > 0) return null
  return page.getByTestId('review-task').getAttribute('data-task-id')
}

/**
 * Labels the drawn task with `label` by its key and waits for the committed view — and for the
 * draw's live refetch that the label sets off (its count of tasks left drops by one): the task on
 * screen must stay the one just labeled, its revealed view intact, until the reviewer moves on.
 */
async function labelDrawn(page: Page, label: string): Promise<void> {
  // Armed: the task was painted, so its keys apply (a key typed before that is dropped by design).
  await page.locator('[data-testid="review-task"][data-keys-armed="true"]').waitFor()
  const task = await page.getByTestId('review-task').getAttribute('data-task-id')
  const left = Number(await page.getByTestId('calibrate-progress').getAttribute('data-unlabeled'))
  const key = await page.locator(`[data-testid="review-candidate"][data-candidate="${label}"]`).getAttribute('data-key')
  await page.keyboard.press(key!)
  await page.locator(`[data-testid="review-candidate"][data-candidate="${label}"].chosen`).waitFor()
  await page.locator(`[data-testid="calibrate-progress"][data-unlabeled="${left - 1}"]`).waitFor()
  expect(await page.getByTestId('review-task').getAttribute('data-task-id')).toBe(task)
  expect(await page.locator(`[data-testid="review-candidate"][data-candidate="${label}"].chosen`).count()).toBe(1)
}

/** Cohen's κ of two raters over the same items: P_e from each rater's own label frequencies. */
function cohen(a: string[], b: string[]): number {
  const n = a.length
  const po = a.filter((x, i) => x === b[i]).length / n
  const cats = [...new Set([...a, ...b])]
  const pe = cats.reduce((s, c) => s + (a.filter((x) => x === c).length / n) * (b.filter((x) => x === c).length / n), 0)
  return (po - pe) / (1 - pe)
}

/** Fleiss' κ with two raters per item: P_e from the pooled label frequencies. */
function fleissTwo(a: string[], b: string[]): number {
  const n = a.length
  const po = a.filter((x, i) => x === b[i]).length / n
  const all = [...a, ...b]
  const pe = [...new Set(all)].reduce((s, c) => s + (all.filter((x) => x === c).length / all.length) ** 2, 0)
  return (po - pe) / (1 - pe)
}

describeWith(CHROMIUM, 'team mode: two reviewers per task, sealed, adjudicated, agreement (Chromium, three logins)', () => {
  // alice: true, false, true, false; bob agrees on the first three and disagrees on the last.
  const aliceLabel = (task: string) => (tasks.indexOf(task) % 2 === 0 ? 'true' : 'false')
  const bobLabel = (task: string) => (task === tasks[3] ? 'true' : aliceLabel(task))
  const ruling = 'false'

  it('sets two reviewers per task in Settings → Team, as carol, the adjudicator named at start', async () => {
    const page = pages.carol
    await go(page, 'settings')
    await page.getByTestId('settings-reviewers-per-task').fill('2')
    await expect.poll(() => page.getByTestId('settings-adjudicators').inputValue()).toBe('carol')
    await page.getByTestId('settings-team-save').click()
    await page.getByTestId('settings-team').getByText('Saved.').waitFor()
    await shot(page, 'settings', { element: page.getByTestId('settings-team') })
    expect(await server.service.handlers['team.getSettings']({}, server.service.context())).toEqual({ reviewersPerTask: 2, adjudicators: ['carol'] })
  })

  it('alice labels every task blind in Calibrate', async () => {
    const page = pages.alice
    await go(page, 'calibrate')
    let task = await nextDraw(page, null)
    const seen: string[] = []
    while (task !== null) {
      await page.getByTestId('verdict-hidden').waitFor()
      seen.push(task)
      await labelDrawn(page, aliceLabel(task))
      // First of the two: no one else's label to show.
      expect(await page.getByTestId('calibrate-others').count()).toBe(0)
      await page.keyboard.press('Enter')
      task = await nextDraw(page, task)
    }
    expect(seen.sort()).toEqual(tasks)
  })

  it('bob draws the same tasks, sealed from alice’s label and blind to the verdict until he commits, then sees hers', async () => {
    const page = pages.bob
    await go(page, 'calibrate')
    let task = await nextDraw(page, null)
    const seen: string[] = []
    while (task !== null) {
      seen.push(task)
      await page.getByTestId('verdict-hidden').waitFor()
      expect(await page.getByTestId('posterior-bar').count()).toBe(0)
      expect(await page.getByTestId('seat-weight').count()).toBe(0)
      expect(await page.getByTestId('calibrate-others').count()).toBe(0)
      expect(await page.locator('[data-testid="review-candidate"].chosen').count()).toBe(0)
      expect(await page.locator('body').innerText()).not.toContain('alice')
      const disagreeing = task === tasks[3]
      if (disagreeing) await shot(page, 'calibrate-blind')

      await labelDrawn(page, bobLabel(task))
      const other = page.getByTestId('calibrate-other-label')
      await other.waitFor()
      expect(await other.evaluateAll((els) => els.map((e) => [e.getAttribute('data-reviewer'), e.getAttribute('data-label')]))).toEqual([['alice', aliceLabel(task)]])
      // Committed: the verdict is open too.
      await page.getByTestId('posterior-bar').first().waitFor({ state: 'attached' })
      expect(await page.getByTestId('verdict-hidden').count()).toBe(0)
      if (disagreeing) await shot(page, 'calibrate-revealed')
      await page.keyboard.press('Enter')
      task = await nextDraw(page, task)
    }
    expect(seen.sort()).toEqual(tasks)
  })

  it('lists the one disagreement for carol, who rules on it: the ruling is an adjudicated label and the task’s label', async () => {
    const disputed = tasks[3]
    // bob is not an adjudicator: he sees the disagreement but may not rule.
    await go(pages.bob, 'adjudicate')
    await pages.bob.getByTestId('adjudicate-not-allowed').waitFor()
    const picks = await pages.bob.getByTestId('adjudicate-pick').all()
    expect(picks.length).toBe(2)
    for (const pick of picks) expect(await pick.isDisabled()).toBe(true)

    const page = pages.carol
    await go(page, 'adjudicate')
    const card = page.locator(`[data-testid="adjudicate-task"][data-task-id="${disputed}"]`)
    await card.waitFor()
    expect(await page.getByTestId('adjudicate-task').count()).toBe(1)
    expect(await page.getByTestId('adjudicate-not-allowed').count()).toBe(0)
    const votes = await card.getByTestId('adjudicate-label').evaluateAll((els) => els.map((e) => [e.getAttribute('data-reviewer'), e.getAttribute('data-label')]))
    expect(votes.sort()).toEqual([
      ['alice', aliceLabel(disputed)],
      ['bob', bobLabel(disputed)]
    ])
    await shot(page, 'adjudicate')

    await card.getByTestId('adjudicate-note').fill('the trial’s primary endpoint decides')
    await card.locator(`[data-testid="adjudicate-pick"][data-candidate="${ruling}"]`).click()
    await page.locator('[data-testid="adjudicate"][data-total="0"]').waitFor()
    expect(await page.getByTestId('adjudicate-task').count()).toBe(0)

    await withStore(async (store) => {
      const live = await store.liveLabels(disputed)
      const rulings = live.filter((l) => l.adjudicated)
      expect(rulings).toMatchObject([{ reviewer: 'carol', label: ruling, source: 'random', note: 'the trial’s primary endpoint decides' }])
      // The votes stay as they were: nothing overwritten.
      expect(live.filter((l) => !l.adjudicated).map((l) => [l.reviewer, l.label]).sort()).toEqual([
        ['alice', aliceLabel(disputed)],
        ['bob', bobLabel(disputed)]
      ])
      const effective = new Map((await store.effectiveLabels()).map((e) => [e.taskId, e]))
      expect(effective.get(disputed)).toMatchObject({ labelId: rulings[0].id, label: ruling, reviewer: 'carol' })
      for (const t of tasks.slice(0, 3)) expect(effective.get(t)?.label, t).toBe(aliceLabel(t))
    })
  })

  it('shows the alice–bob agreement in Audit with the κ of the labels given', async () => {
    const a = tasks.map(aliceLabel)
    const b = tasks.map(bobLabel)
    const pairKappa = cohen(a, b)
    const overallKappa = fleissTwo(a, b)
    // true,false,true,false against true,false,true,true: P_o = 3/4, P_e = 1/2 · 3/4 + 1/2 · 1/4 = 1/2.
    expect(pairKappa).toBeCloseTo(0.5, 12)

    const page = pages.carol
    await go(page, 'audit')
    const panel = page.getByTestId('audit-agreement')
    await panel.waitFor({ timeout: 45_000 })
    const pair = panel.locator('[data-testid="agreement-pair"][data-a="alice"][data-b="bob"]')
    expect(await panel.getByTestId('agreement-pair').count()).toBe(1)
    expect(await pair.getAttribute('data-tasks')).toBe('4')
    expect(Number(await pair.getAttribute('data-kappa'))).toBeCloseTo(pairKappa, 9)
    expect(await pair.locator('td strong').textContent()).toBe(pairKappa.toFixed(3))
    const overall = panel.getByTestId('agreement-overall')
    expect(Number(await overall.getAttribute('data-kappa'))).toBeCloseTo(overallKappa, 9)
    expect(await overall.locator('td strong').textContent()).toBe(overallKappa.toFixed(3))
    await panel.scrollIntoViewIfNeeded()
    await shot(page, 'audit-agreement', { element: panel })
    await shot(page, 'audit', { fullPage: true })
  })

  it('shows bob that alice is reviewing the task she has open', async () => {
    const task = tasks[0]
    await go(pages.alice, `review/${encodeURIComponent(task)}`)
    await pages.alice.locator(`[data-testid="review-task"][data-task-id="${task}"]`).waitFor()
    await expect
      .poll(async () => (await server.service.handlers['task.detail']({ taskId: task, blind: false }, server.service.context())).reservation?.reviewer ?? null)
      .toBe('alice')
    await go(pages.bob, `review/${encodeURIComponent(task)}`)
    const notice = pages.bob.getByTestId('reserved-by')
    await notice.waitFor()
    expect(await notice.getAttribute('data-reviewer')).toBe('alice')
    // Bob is no adjudicator: no way to end her hold.
    expect(await pages.bob.getByTestId('release-hold').count()).toBe(0)
    await shot(pages.bob, 'reserved-by')
  })

  it('lets carol, the adjudicator, release alice’s hold; her window then holds the task; the release is audited', async () => {
    const task = tasks[0]
    // Bob's window leaves the task: a window that waits on a held task takes it once it is free, and
    // here the window to take it is carol's.
    await go(pages.bob, 'queue')
    await go(pages.carol, `review/${encodeURIComponent(task)}`)
    const release = pages.carol.getByTestId('release-hold')
    await release.waitFor()
    expect(await release.textContent()).toContain('alice')
    await shot(pages.carol, 'release-hold', { element: pages.carol.getByTestId('reserved-by') })
    await release.click()
    await pages.carol.getByTestId('reserved-by').waitFor({ state: 'detached' })
    await expect
      .poll(async () => (await server.service.handlers['task.detail']({ taskId: task, blind: false }, server.service.context())).reservation?.reviewer ?? null)
      .toBe('carol')
    const audit = await server.service.handlers['audit.tail']({ limit: 20 }, server.service.context())
    expect(audit.filter((a) => a.action === 'task.release' && a.reviewer === 'carol')).toMatchObject([{ target: task, details: { heldBy: 'alice' } }])
  })

  it('raised no page errors', () => {
    expect(pageErrors).toEqual([])
  })
})
