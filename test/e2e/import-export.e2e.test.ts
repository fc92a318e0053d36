/**
 * The Import screen names a mistaken file's form and what it lacks, once; the console downloads the
 * CSV exports of the queue's filter and the HTML audit report (Chromium, web host).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startConsoleServer, type ConsoleServer } from '../../src/main/console-server'
import { createDemoDatabase } from '../../src/main/service/demo'
import { CHROMIUM, launchChromium, SHOTS } from './browser'
import { describeWith } from '../helpers/prerequisites'

let dir: string
let server: ConsoleServer
let browser: Browser
let page: Page
const pageErrors: string[] = []

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'arbiter-e2e-import-export-'))
  const dbLocation = join(dir, 'arbiter.db')
  await createDemoDatabase(dbLocation)
  server = await startConsoleServer({ dbLocation })
  browser = await launchChromium()
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, acceptDownloads: true })
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

/** Imports `name` (written with `text`) through the Import screen, the delimiter chosen when given; waits for the result. */
async function importFile(name: string, text: string, delimiter: string | null = null): Promise<void> {
  const file = join(dir, name)
  writeFileSync(file, text)
  // Through another screen, so the Import screen starts afresh (no earlier file or result).
  await page.goto(`${server.host.url}#/queue`)
  await page.goto(`${server.host.url}#/import`)
  await page.getByTestId('import-file').setInputFiles(file)
  if (delimiter !== null) await page.getByTestId('import-delimiter').selectOption(delimiter)
  await page.getByRole('button', { name: new RegExp(`^Import ${name.replace('.', '\\.')}`) }).click()
  await page.locator('[data-status]').waitFor({ timeout: 45_000 })
}

const errorsShown = () =>
  page.getByTestId('import-error').evaluateAll((els) => els.map((e) => ({ rule: e.getAttribute('data-rule'), line: e.getAttribute('data-line'), text: e.textContent ?? '' })))

describeWith(CHROMIUM, 'import mistakes and console downloads (Chromium, web host)', () => {
  it('a debate-rounds CSV without "seat": one error saying it looks like debate rounds and lacks "seat"', async () => {
    await importFile('no-seat.csv', ['task,round,model,answer', 'x1,0,m1,yes', 'x1,0,m2,no', 'x1,1,m1,yes', 'x2,0,m1,no'].join('\n'))
    expect(await page.locator('[data-status]').getAttribute('data-status')).toBe('rejected')
    const errors = await errorsShown()
    expect(errors).toHaveLength(1)
    expect(errors[0]).toMatchObject({ rule: 'missing-field', line: '1' })
    expect(errors[0].text).toMatch(/no "seat" column.*looks like debate rounds/)
    expect(errors[0].text).not.toMatch(/expected 3 columns/)
    await page.screenshot({ path: join(SHOTS, 'import-no-seat.png') })
  })

  it('a .json array of tasks: one error that says to use JSONL', async () => {
    const tasks = Array.from({ length: 30 }, (_, i) => ({ task: `arr-${i}`, candidates: ['a', 'b'], moves: [] }))
    await importFile('tasks.json', JSON.stringify(tasks, null, 2))
    const errors = await errorsShown()
    expect(errors).toHaveLength(1)
    expect(errors[0].rule).toBe('not-jsonl')
    expect(errors[0].text).toMatch(/use JSONL/)
  })

  it('a semicolon CSV: refused once naming the semicolon delimiter, then imported with it chosen', async () => {
    const text = 'task;worker;label\nsemi-1;w1;"yes; surely"\nsemi-1;w2;no\nsemi-2;w1;no\nsemi-2;w2;no\n'
    await importFile('semi.csv', text)
    const errors = await errorsShown()
    expect(errors).toHaveLength(1)
    expect(errors[0]).toMatchObject({ rule: 'wrong-form', line: '1' })
    expect(errors[0].text).toMatch(/choose the semicolon delimiter/)
    await importFile('semi.csv', text, 'semicolon')
    const summary = page.getByTestId('import-summary')
    expect(await summary.getAttribute('data-status')).toBe('imported')
    expect(await summary.textContent()).toMatch(/2 tasks written/)
  })

  it('an empty file is refused, not "imported"', async () => {
    await importFile('empty.jsonl', '\n\n')
    expect(await page.locator('[data-status]').getAttribute('data-status')).toBe('rejected')
    expect(await page.locator('[data-status] h2').textContent()).toBe('empty.jsonl was not imported')
    const errors = await errorsShown()
    expect(errors.map((e) => e.rule)).toEqual(['empty-file'])
    expect(errors[0].text).toMatch(/the file is empty/)
  })

  it('many tasks changed: one group "N tasks: changed-task" with the first 3 listed; a seat clash says how to fix it', async () => {
    const task = (i: number, question: string) => JSON.stringify({ task: `many-${i}`, question, candidates: ['a', 'b'], moves: [{ id: 'm1', round: 0, seat: 'W1', force: 'propose', answer: 'a' }] })
    await importFile('many.jsonl', Array.from({ length: 40 }, (_, i) => task(i, 'first')).join('\n'))
    expect(await page.getByTestId('import-summary').getAttribute('data-status')).toBe('imported')
    await importFile('many-changed.jsonl', Array.from({ length: 40 }, (_, i) => task(i, 'edited')).join('\n'))
    const group = page.getByTestId('import-error-group')
    expect(await group.count()).toBe(1)
    expect(await group.getAttribute('data-rule')).toBe('changed-task')
    expect(await group.getAttribute('data-count')).toBe('40')
    expect(await group.textContent()).toMatch(/^40 tasks: changed-task/)
    expect(await group.getByTestId('import-error').count()).toBe(3)
    expect(await group.textContent()).toMatch(/… and 37 more of the same rule/)
    await page.screenshot({ path: join(SHOTS, 'import-grouped-errors.png') })

    const clash = (task: string, model: string) => JSON.stringify({ task, candidates: ['a', 'b'], seats: [{ id: 'W9', model }], moves: [] })
    await importFile('clash.jsonl', `${clash('clash-1', 'model-a')}\n${clash('clash-2', 'model-b')}\n`)
    const errors = await errorsShown()
    expect(errors.map((e) => e.rule)).toEqual(['seat-model-clash'])
    expect(errors[0].text).toMatch(/To fix: .*own seat id \(e\.g\. "W9-model-b"\)/)
  })

  it('exports the filtered queue as CSV: a header and exactly the filtered rows', async () => {
    await page.goto(`${server.host.url}#/queue`)
    await page.getByTestId('queue-row').first().waitFor()
    await page.getByTestId('queue-filter-group').selectOption('Trivia')
    await expect.poll(async () => {
      const groups = await page.getByTestId('queue-row').evaluateAll((els) => els.map((e) => e.querySelectorAll('[role="gridcell"]')[1]?.textContent))
      return groups.length > 0 && groups.every((g) => g === 'Trivia')
    }).toBe(true)
    const total = Number(/(\d+) task/.exec((await page.locator('.hint').textContent()) ?? '')?.[1])
    expect(total).toBeGreaterThan(0)
    await page.getByTestId('export-format').selectOption('csv')
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-decisions').click()])
    expect(download.suggestedFilename()).toBe('arbiter-decisions.csv')
    const [header, ...rows] = readFileSync((await download.path())!, 'utf8').trim().split(/\r?\n/)
    expect(header.split(',').slice(0, 2)).toEqual(['task', 'decision'])
    expect(rows).toHaveLength(total)
    expect(rows.every((r) => r.startsWith('trivia-'))).toBe(true)
  })

  it('downloads the audit report from Audit: the HTML of the figures on screen, no database path', async () => {
    await page.goto(`${server.host.url}#/audit`)
    await page.getByTestId('download-report').waitFor({ timeout: 45_000 })
    const shown = (await page.locator('.screen-header p').first().textContent()) ?? ''
    const labeled = /(\d+) labeled tasks \((\d+) blind\)/.exec(shown)
    expect(labeled).not.toBeNull()
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('download-report').click()])
    expect(download.suggestedFilename()).toMatch(/^arbiter-report-\d{4}-\d\d-\d\d\.html$/)
    const html = readFileSync((await download.path())!, 'utf8')
    expect(html).toContain('<title>Arbiter audit report</title>')
    expect(html).toContain(`${labeled![1]} labeled tasks (${labeled![2]} random)`)
    expect(html).not.toContain(dir)
    expect(html).not.toMatch(/<script/i)
    expect(pageErrors).toEqual([])
  })
})
