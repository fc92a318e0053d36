import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startConsoleServer, type ConsoleServer } from '../../src/main/console-server'
import { createDemoDatabase } from '../../src/main/service/demo'
import { openStore } from '../../src/main/store'
import { CHROMIUM, launchChromium, setDwell } from './browser'
import { describeWith } from '../helpers/prerequisites'

const SHOTS = join(__dirname, '../../test-results/screenshots')

let dir: string
let dbLocation: string
let server: ConsoleServer
let browser: Browser
let page: Page
const pageErrors: string[] = []

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'arbiter-e2e-review-'))
  dbLocation = join(dir, 'arbiter.db')
  await createDemoDatabase(dbLocation)
  server = await startConsoleServer({ dbLocation })
  await setDwell(server, 0)
  browser = await launchChromium()
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, acceptDownloads: true })
  page = await context.newPage()
  page.on('pageerror', (e) => pageErrors.push(String(e)))
  await page.goto(server.host.loginUrl)
  mkdirSync(SHOTS, { recursive: true })
})

afterAll(async () => {
  await browser?.close()
  await server?.close()
  rmSync(dir, { recursive: true, force: true })
})

async function withStore<T>(fn: (store: Awaited<ReturnType<typeof openStore>>) => Promise<T>): Promise<T> {
  const store = await openStore(dbLocation)
  try {
    return await fn(store)
  } finally {
    await store.close()
  }
}

const reviewTaskId = () => page.getByTestId('review-task').getAttribute('data-task-id')

describeWith(CHROMIUM, 'review console on the demo database (Chromium, web host)', () => {
  it('clears 10 queue tasks by keyboard alone, undoes one, and the database holds exactly those labels after a reload', async () => {
    await page.goto(`${server.host.url}#/queue`)
    await page.getByTestId('queue-row').first().waitFor()
    await page.keyboard.press('Enter')
    const given: { task: string; label: string }[] = []
    for (let i = 0; i < 10; i++) {
      // Armed: the task was painted, so its keys apply (a key typed before that is dropped by design).
      await page.locator('[data-testid="review-task"][data-keys-armed="true"]').waitFor()
      const task = (await reviewTaskId())!
      const label = (await page.locator('[data-testid="review-candidate"][data-key="1"]').getAttribute('data-candidate'))!
      await page.keyboard.press('1')
      await expect.poll(reviewTaskId).not.toBe(task)
      given.push({ task, label })
    }
    expect(new Set(given.map((g) => g.task)).size).toBe(10)
    if (given.length === 10) await page.screenshot({ path: join(SHOTS, 'review-after-10.png') })

    // Undo the tenth: Backspace returns to that task and supersedes its label.
    await page.locator('[data-testid="review-task"][data-keys-armed="true"]').waitFor()
    await page.keyboard.press('Backspace')
    await expect.poll(reviewTaskId).toBe(given[9].task)
    await page.reload()
    await page.getByTestId('review-task').waitFor()

    const reviewer = (await withStore((s) => s.getSettings())).reviewer ?? 'reviewer'
    await withStore(async (store) => {
      for (const [i, g] of given.entries()) {
        const live = (await store.liveLabels(g.task)).filter((l) => l.source === 'escalation' && l.reviewer === reviewer)
        expect(live.map((l) => l.label), g.task).toEqual(i === 9 ? [] : [g.label])
      }
    })
  })

  it('draws the posterior, the seat weights and the per-round bound to scale (plain elements, no chart library)', async () => {
    const q = await server.service.handlers['queue.page'](
      { filter: { decision: 'defer', group: null, seat: null, candidate: null, labelSource: null, spotCheck: null, search: null }, sort: 'gap', direction: 'asc', offset: 0, limit: 50 },
      server.service.context()
    )
    const details = await Promise.all(q.rows.map((r) => server.service.handlers['task.detail']({ taskId: r.taskId, blind: false }, server.service.context())))
    // A task whose seats weigh both ways, if the demo has one: the diverging bars are then tested both ways.
    const d = details.find((x) => x.verdict?.seats.some((s) => (s.weight ?? 0) < 0)) ?? details.find((x) => x.verdict !== null)!
    const v = d.verdict!
    await page.goto(`${server.host.url}#/review/${encodeURIComponent(d.task.id)}`)
    await page.locator(`[data-testid="review-task"][data-task-id=${JSON.stringify(d.task.id)}]`).waitFor()
    await page.getByTestId('posterior-bar').first().waitFor({ state: 'attached' })
    expect(await page.locator('[data-testid="review-task"] .recharts-wrapper').count()).toBe(0)

    // Each posterior bar spans p of its track.
    const bars = await page.getByTestId('posterior-bar').evaluateAll((els) =>
      els.map((e) => ({ candidate: e.getAttribute('data-candidate'), width: e.getBoundingClientRect().width, track: e.parentElement!.getBoundingClientRect().width }))
    )
    expect(bars.map((b) => b.candidate)).toEqual(d.task.candidates)
    for (const b of bars) expect(Math.abs(b.width - v.posterior[b.candidate!] * b.track), b.candidate!).toBeLessThan(1.5)

    // Seat weights diverge from the middle: right for w > 0, left for w < 0, |w| / max(1, max |w|) of half the track.
    const max = Math.max(1, ...v.seats.map((s) => Math.abs(s.weight ?? 0)))
    for (const s of v.seats) {
      const box = await page.getByLabel(`${s.seat} weight ${(s.weight ?? 0).toFixed(2)}`).evaluate((e) => {
        const r = e.getBoundingClientRect()
        const t = e.parentElement!.getBoundingClientRect()
        return { left: r.left - t.left, right: r.right - t.left, width: r.width, track: t.width }
      })
      const w = s.weight ?? 0
      expect(Math.abs(box.width - (Math.abs(w) / max) * (box.track / 2)), s.seat).toBeLessThan(1.5)
      if (w > 0) expect(Math.abs(box.left - box.track / 2), s.seat).toBeLessThan(1)
      if (w < 0) expect(Math.abs(box.right - box.track / 2), s.seat).toBeLessThan(1)
    }

    // The bound: one dot per round with a bound, higher on screen for a higher L_t; the 1 − α line above every dot of a deferred task.
    const bounds = v.rounds.map((r) => r.bound)
    const dots = await page.locator('svg.bound-chart circle.bound-dot').evaluateAll((els) => els.map((e) => Number(e.getAttribute('cy'))))
    const finite = bounds.filter((b): b is number => b !== null)
    expect(dots).toHaveLength(finite.length)
    for (let i = 1; i < finite.length; i++) if (finite[i] !== finite[i - 1]) expect(Math.sign(dots[i - 1] - dots[i])).toBe(Math.sign(finite[i] - finite[i - 1]))
    const line = Number(await page.locator('svg.bound-chart .threshold line').getAttribute('y1'))
    for (const y of dots) expect(line).toBeLessThan(y)
  })

  it('hides the verdict in Calibrate until the blind label is committed, then reveals it', async () => {
    await page.goto(`${server.host.url}#/calibrate`)
    await page.getByTestId('verdict-hidden').waitFor()
    await page.getByTestId('calibrate-progress').waitFor()
    await page.locator('[data-testid="review-task"][data-keys-armed="true"]').waitFor()
    const task = (await reviewTaskId())!
    expect(await page.getByTestId('posterior-bar').count()).toBe(0)
    expect(await page.getByTestId('seat-weight').count()).toBe(0)
    expect(await page.getByTestId('cert-gap').count()).toBe(0)
    await page.screenshot({ path: join(SHOTS, 'calibrate-blind.png') })

    await page.keyboard.press('1')
    // attached, not visible: a near-zero probability draws a bar too thin to count as visible
    await page.getByTestId('posterior-bar').first().waitFor({ state: 'attached' })
    expect(await page.getByTestId('verdict-hidden').count()).toBe(0)
    expect(await page.getByTestId('seat-weight').count()).toBeGreaterThan(0)
    await page.getByTestId('cert-gap').waitFor()
    await page.screenshot({ path: join(SHOTS, 'calibrate-revealed.png') })
    const labels = await withStore((s) => s.liveLabels(task))
    expect(labels.map((l) => l.source)).toEqual(['random'])
  })

  it('lists every error of an invalid import and changes nothing', async () => {
    const before = await server.service.handlers['app.counts']({}, server.service.context())
    const bad = join(dir, 'bad.trace.jsonl')
    writeFileSync(
      bad,
      [
        '{"task":"x1","candidates":["a","b"],"moves":[{"id":"m1","round":0,"seat":"S","force":"propose","answer":"c"}]}',
        '',
        '{"task":"x2","candidates":["a","b"],"moves":[{"id":"m1","round":0,"seat":"S","force":"challenge","target":"nope"}]}',
        '{"task":"x3","candidates":["a"],"moves":[]}'
      ].join('\n')
    )
    await page.goto(`${server.host.url}#/import`)
    await page.getByTestId('import-file').setInputFiles(bad)
    await page.getByRole('button', { name: /^Import bad/ }).click()
    await page.getByTestId('import-error').first().waitFor()
    const errors = await page.getByTestId('import-error').evaluateAll((els) => els.map((e) => [e.getAttribute('data-line'), e.getAttribute('data-rule')]))
    expect(errors).toEqual([
      ['1', 'answer-not-candidate'],
      ['3', 'unknown-target'],
      ['4', 'too-few-candidates']
    ])
    await page.screenshot({ path: join(SHOTS, 'import-errors.png') })
    // What an import writes; a refit the earlier tests' labels started may still land (fits, decisions).
    const written = ({ tasks, seats, moves, labels, labeledTasks }: typeof before) => ({ tasks, seats, moves, labels, labeledTasks })
    expect(written(await server.service.handlers['app.counts']({}, server.service.context()))).toEqual(written(before))
  })

  it('exports exactly the rows the queue filter shows', async () => {
    await page.goto(`${server.host.url}#/queue`)
    await page.getByTestId('queue-row').first().waitFor()
    await page.getByTestId('queue-filter-group').selectOption('Trivia')
    await expect.poll(async () => {
      const groups = await page.getByTestId('queue-row').evaluateAll((els) => els.map((e) => e.querySelectorAll('[role="gridcell"]')[1]?.textContent))
      return groups.length > 0 && groups.every((g) => g === 'Trivia')
    }).toBe(true)
    const shown = await page.locator('.hint').textContent()
    const total = Number(/(\d+) task/.exec(shown ?? '')?.[1])
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-decisions').click()])
    const rows = readFileSync((await download.path())!, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { task: string; decision: string })
    expect(rows.length).toBe(total)
    expect(rows.every((r) => r.task.startsWith('trivia-') && r.decision === 'defer')).toBe(true)
  })

  it('renders every audit chart with data', async () => {
    await page.goto(`${server.host.url}#/audit`)
    await page.getByTestId('audit-methods').waitFor({ timeout: 45_000 })
    const methodRows = await page.getByTestId('audit-methods').locator('tbody tr').count()
    expect(methodRows).toBeGreaterThanOrEqual(5)
    // One reliability diagram per method that ran, each with its plotted points.
    const diagrams = page.getByTestId('audit-reliability').locator('figure')
    expect(await diagrams.count()).toBeGreaterThanOrEqual(4)
    for (const fig of await diagrams.all()) expect(await fig.locator('.recharts-line-dots circle, .recharts-dot').count()).toBeGreaterThan(0)
    expect(await page.getByTestId('audit-frontier').locator('.recharts-line').count()).toBeGreaterThanOrEqual(2)
    const seats = page.getByTestId('audit-seats')
    expect(await seats.locator('table.data > tbody > tr').count()).toBe(5)
    expect(await seats.locator('table.heatmap').count()).toBeGreaterThan(0)
    // The persistent adversary is visibly negative.
    expect(await seats.locator('table.data tr.negative th').first().textContent()).toContain('A4')
  })

  it('shows every screen populated, in light and dark (screenshots for the README)', async () => {
    const first = await page.goto(`${server.host.url}#/queue`).then(() => page.getByTestId('queue-row').first().getAttribute('data-task-id'))
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme })
      const screens: [string, string, string][] = [
        ['queue', '#/queue', 'queue-row'],
        ['review', `#/review/${first}`, 'cert-gap'],
        ['calibrate', '#/calibrate', 'calibrate-progress'],
        ['audit', '#/audit', 'audit-seats'],
        ['import', '#/import', 'import-file'],
        ['settings', '#/settings', 'settings-method']
      ]
      for (const [name, hash, testId] of screens) {
        await page.goto(`${server.host.url}${hash}`)
        await page.getByTestId(testId).first().waitFor({ timeout: 45_000 })
        await page.screenshot({ path: join(SHOTS, `demo-${name}-${scheme}.png`), fullPage: name === 'audit' })
      }
    }
    await page.emulateMedia({ colorScheme: 'light' })
  })

  it('raised no page errors', () => {
    expect(pageErrors).toEqual([])
  })
})
