/**
 * What the engine did, on the review screen and the queue (Chromium):
 * - the decision's answer and its round (acted: the stop round; deferred: the draft at the last
 *   round) in Review and in the queue row, with the posterior at that round beside the final one —
 *   on a demo task whose acted answer is not the final posterior's top;
 * - the queue's headers say what each column means, and every column fits a 1024-px window;
 * - an unlabeled real debate: the posterior shown is the debate's last round, not its opening, and
 *   the certificate panel says how many blind labels it needs before a certificate can exist.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { TaskDetail } from '../../src/shared/api'
import { fitCommand } from '../../src/main/cli/commands/fit'
import { importCommand } from '../../src/main/cli/commands/import'
import { startConsoleServer, type ConsoleServer } from '../../src/main/console-server'
import { defaultKs, minCalibrationFor } from '../../src/main/engine'
import { parseRecords } from '../../src/main/io/csv-records'
import { createDemoDatabase } from '../../src/main/service/demo'
import { CHROMIUM, launchChromium, SHOTS } from './browser'
import { dataset, describeWith } from '../helpers/prerequisites'
import { datasetDir } from '../../scripts/data-dir'

const SOON = { timeout: 15_000 }
const ROUNDS = join(datasetDir('real-debates'), 'cipher-phi4-gsm8k/rounds.csv')

let dir: string
let demo: ConsoleServer
let browser: Browser
let page: Page
const pageErrors: string[] = []

type Handlers = ConsoleServer['service']['handlers']
const call = <M extends keyof Handlers>(server: ConsoleServer, method: M, args: Parameters<Handlers[M]>[0]) =>
  server.service.handlers[method](args as never, server.service.context()) as ReturnType<Handlers[M]>

const quote = (f: string): string => (/[",\r\n]/.test(f) ? `"${f.replace(/"/g, '""')}"` : f)

async function run(cmd: typeof importCommand, argv: string[]): Promise<void> {
  let err = ''
  const code = await cmd.run(argv, { out: () => {}, err: (t) => (err += `${t}\n`) })
  expect(code, err).toBe(0)
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'arbiter-e2e-decision-'))
  const db = join(dir, 'demo.db')
  await createDemoDatabase(db)
  demo = await startConsoleServer({ dbLocation: db })
  browser = await launchChromium()
  page = await browser.newPage({ viewport: { width: 1440, height: 900 } })
  page.on('pageerror', (e) => pageErrors.push(String(e)))
  await page.goto(demo.host.loginUrl)
  mkdirSync(SHOTS, { recursive: true })
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await demo?.close()
  rmSync(dir, { recursive: true, force: true })
})

async function tasksOf(server: ConsoleServer, decision: 'act' | 'defer', limit: number): Promise<TaskDetail[]> {
  const q = await call(server, 'queue.page', {
    filter: { decision, group: null, seat: null, candidate: null, labelSource: null, spotCheck: null, search: null },
    sort: 'gap', direction: 'asc', offset: 0, limit
  })
  return Promise.all(q.rows.map((r) => call(server, 'task.detail', { taskId: r.taskId, blind: false })))
}

async function openReview(server: ConsoleServer, taskId: string): Promise<void> {
  await page.goto(`${server.host.url}#/review/${encodeURIComponent(taskId)}`)
  await expect.poll(() => page.getByTestId('review-task').getAttribute('data-task-id'), SOON).toBe(taskId)
}

async function queueRowOf(server: ConsoleServer, taskId: string, decision: 'act' | 'defer') {
  await page.goto(`${server.host.url}#/queue`)
  await page.getByTestId('queue-row').first().waitFor(SOON)
  // The filter that holds the task, and its id as the search.
  await page.getByTestId('queue-filter-decision').selectOption(decision)
  await page.getByTestId('queue-search').fill(taskId)
  const row = page.locator(`[data-testid="queue-row"][data-task-id="${taskId}"]`)
  await row.waitFor(SOON)
  return row
}

describeWith(CHROMIUM, 'the decision’s answer in Review and the queue (Chromium, demo database)', () => {
  it('shows an acted answer that is not the final posterior’s top, with its round and the posterior at that round', async () => {
    // The store's decision (what `export decisions` writes) against the final posterior's top.
    const acted = await tasksOf(demo, 'act', 500)
    const d = acted.find((x) => x.verdict?.decision?.answer !== null && x.verdict!.decision!.answer !== x.verdict!.answer)
    expect(d, 'an acted demo task whose acted answer is not the final posterior’s top').toBeDefined()
    const v = d!.verdict!
    const decision = v.decision!
    const round = decision.stopRound!
    expect(round).not.toBeNull()

    await openReview(demo, d!.task.id)
    const shown = page.locator('[data-testid="review-task"] [data-testid="decision-answer"]')
    await shown.waitFor(SOON)
    expect(await shown.getAttribute('data-answer')).toBe(decision.answer)
    expect(await shown.getAttribute('data-round')).toBe(String(round))
    expect(await shown.getAttribute('data-decision')).toBe('act')
    expect(await shown.innerText()).toContain(`round ${round}`)
    // The posterior at that round beside the final one, each drawn from its own figures.
    const atRound = await page.getByTestId('decision-posterior-bar').evaluateAll((els) => els.map((e) => [e.getAttribute('data-candidate'), Number(e.getAttribute('data-p'))] as const))
    expect(Object.fromEntries(atRound)).toEqual(v.rounds[round].posterior)
    const final = await page.getByTestId('posterior-bar').evaluateAll((els) => els.map((e) => [e.getAttribute('data-candidate'), Number(e.getAttribute('data-p'))] as const))
    expect(Object.fromEntries(final)).toEqual(v.posterior)
    expect(await page.locator('#posterior-heading').innerText()).toMatch(/final posterior/i)
    for (const width of [1440, 1024]) {
      await page.setViewportSize({ width, height: 900 })
      await page.screenshot({ path: join(SHOTS, `review-acted-decision-${width}.png`), fullPage: true })
    }
    await page.setViewportSize({ width: 1440, height: 900 })

    const row = await queueRowOf(demo, d!.task.id, 'act')
    const cell = row.getByTestId('decision-answer')
    expect(await cell.getAttribute('data-answer')).toBe(decision.answer)
    expect(await cell.getAttribute('data-round')).toBe(String(round))
    expect(await cell.innerText()).toContain(`r${round}`)
    expect(await page.locator('[data-testid="queue-head"][data-column="answer"]').innerText()).toMatch(/decision/i)
  })

  it('shows a deferred task’s draft answer at the last round', async () => {
    const [d] = (await tasksOf(demo, 'defer', 5)).filter((x) => x.verdict?.decision?.answer != null)
    const v = d.verdict!
    const last = v.rounds.length - 1
    await openReview(demo, d.task.id)
    const shown = page.locator('[data-testid="review-task"] [data-testid="decision-answer"]')
    await shown.waitFor(SOON)
    expect(await shown.getAttribute('data-answer')).toBe(v.decision!.answer)
    expect(await shown.getAttribute('data-round')).toBe(String(last))
    expect(await shown.getAttribute('data-decision')).toBe('defer')
    for (const width of [1440, 1024]) {
      await page.setViewportSize({ width, height: 900 })
      await page.screenshot({ path: join(SHOTS, `review-deferred-decision-${width}.png`), fullPage: true })
    }
    await page.setViewportSize({ width: 1440, height: 900 })
    const row = await queueRowOf(demo, d.task.id, 'defer')
    expect(await row.getByTestId('decision-answer').getAttribute('data-answer')).toBe(v.decision!.answer)
    expect(await row.getByTestId('decision-answer').getAttribute('data-round')).toBe(String(last))
  })

  it('says what GAP, DISAGREEMENT and AGE mean, and fits every column in a 1024-px window', async () => {
    for (const width of [1440, 1024]) {
      await page.setViewportSize({ width, height: 800 })
      await page.goto(`${demo.host.url}#/queue`)
      await page.getByTestId('queue-row').first().waitFor(SOON)
      for (const [column, word] of [['gap', /bound/i], ['disagreement', /share of seats/i], ['age', /imported/i]] as const) {
        expect(await page.locator(`[data-testid="queue-head"][data-column="${column}"]`).getAttribute('title'), column).toMatch(word)
      }
      const label = (await page.locator('[data-testid="queue-head"][data-column="label"]').boundingBox())!
      expect(label.x + label.width, `the LABEL header inside ${width} px`).toBeLessThanOrEqual(width)
      const lastCell = (await page.getByTestId('queue-row').first().getByRole('gridcell').last().boundingBox())!
      expect(lastCell.x + lastCell.width).toBeLessThanOrEqual(width)
      await page.screenshot({ path: join(SHOTS, `queue-decision-${width}.png`) })
    }
    await page.setViewportSize({ width: 1440, height: 900 })
  })
})

describeWith([CHROMIUM, dataset('real-debates')], 'an unlabeled real debate (cipher-phi4-gsm8k, Chromium)', () => {
  let real: ConsoleServer
  beforeAll(async () => {
    const { records, errors } = parseRecords(readFileSync(ROUNDS, 'utf8'), 'comma', ROUNDS)
    expect(errors).toEqual([])
    const [header, ...rows] = records.map((r) => r.fields)
    const goldAt = header.indexOf('gold')
    const lines = [header, ...rows.map((r) => r.map((f, i) => (i === goldAt ? '' : f)))]
    const csv = join(dir, 'unlabeled.csv')
    writeFileSync(csv, lines.map((l) => l.map(quote).join(',')).join('\n') + '\n')
    const db = join(dir, 'real.db')
    await run(importCommand, [csv, '--db', db])
    await run(fitCommand, ['--db', db])
    real = await startConsoleServer({ dbLocation: db })
  }, 240_000)
  afterAll(async () => {
    await real?.close()
  })

  it('shows the last round’s posterior, highlights no tied bar, and says how many blind labels a certificate needs', async () => {
    const details = await tasksOf(real, 'defer', 500)
    // A debate that ended elsewhere than it opened: the posterior shown must be the last round's.
    const moved = details.find((x) => {
      const r = x.verdict!.rounds
      return JSON.stringify(r[0].social) !== JSON.stringify(r[r.length - 1].social)
    })
    expect(moved, 'a debate whose seats moved').toBeDefined()
    const v = moved!.verdict!
    const lastReal = Math.max(...moved!.moves.map((m) => m.round))
    expect(v.posterior).toEqual(v.rounds[lastReal].social)
    await page.goto(real.host.loginUrl)
    await openReview(real, moved!.task.id)
    await page.getByTestId('posterior-bar').first().waitFor(SOON)
    const shown = await page.getByTestId('posterior-bar').evaluateAll((els) => els.map((e) => [e.getAttribute('data-candidate'), Number(e.getAttribute('data-p'))] as const))
    expect(Object.fromEntries(shown)).toEqual(v.rounds[lastReal].social)
    const why = page.getByTestId('why-deferred')
    const needed = minCalibrationFor(defaultKs('binomial'))
    expect(await why.getAttribute('data-calibration-needed')).toBe(String(needed))
    expect(await why.getAttribute('data-calibration-size')).toBe('0')
    expect(await why.innerText()).toContain(`${needed} blind (random) labels`)
    expect(await page.getByTestId('cert-gap').innerText()).not.toMatch(/No certificate has been computed/)
    await page.screenshot({ path: join(SHOTS, 'review-unlabeled-debate-1440.png'), fullPage: true })

    // A tied posterior highlights none of its bars.
    const tied = details.find((x) => {
      const p = Object.values(x.verdict!.posterior)
      const top = Math.max(...p)
      return p.filter((q) => Math.abs(q - top) <= 1e-12).length > 1
    })
    expect(tied, 'a debate that ended tied').toBeDefined()
    await openReview(real, tied!.task.id)
    await page.getByTestId('posterior-bar').first().waitFor(SOON)
    expect(await page.locator('[data-testid="posterior-bar"].hbar-answer').count()).toBe(0)
    await page.screenshot({ path: join(SHOTS, 'review-tied-posterior-1440.png'), fullPage: true })
    expect(pageErrors).toEqual([])
  })
})
