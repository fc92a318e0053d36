/**
 * The operating loop on a real debate: cipher-phi4-gsm8k's rounds.csv (the debate-rounds form), split by
 * task — the first half of its task ids imported with `--gold-as random`, the rest with the gold column
 * emptied — into a new database, `fit` under the defaults (the standing vote, β = 0.20, the binomial
 * bound); then the console in Chromium shows a deferred task with the method's posterior, the seat
 * weights and the certificate's why (with n), and an acted one.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { exportCommand } from '../../src/main/cli/commands/export'
import { fitCommand } from '../../src/main/cli/commands/fit'
import { importCommand } from '../../src/main/cli/commands/import'
import { startConsoleServer, type ConsoleServer } from '../../src/main/console-server'
import { parseRecords } from '../../src/main/io/csv-records'
import { CHROMIUM, launchChromium, setDwell } from './browser'
import { dataset, describeWith } from '../helpers/prerequisites'
import { datasetDir } from '../../scripts/data-dir'

const ROUNDS = join(datasetDir('real-debates'), 'cipher-phi4-gsm8k/rounds.csv')
const SHOTS = join(__dirname, '../../test-results/screenshots')

let dir: string
let db: string
let server: ConsoleServer
let browser: Browser
let page: Page
let fitReport: Record<string, unknown>
const decisions = new Map<string, string>()
const pageErrors: string[] = []

const quote = (f: string): string => (/[",\r\n]/.test(f) ? `"${f.replace(/"/g, '""')}"` : f)
const csvLine = (fields: readonly string[]): string => fields.map(quote).join(',')

async function run(cmd: typeof importCommand, argv: string[]): Promise<string> {
  let out = ''
  let err = ''
  const code = await cmd.run(argv, { out: (t) => (out += `${t}\n`), err: (t) => (err += `${t}\n`) })
  expect(code, err).toBe(0)
  return out
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'arbiter-e2e-debate-'))
  db = join(dir, 'arbiter.db')
  const { records, errors } = parseRecords(readFileSync(ROUNDS, 'utf8'), 'comma', ROUNDS)
  expect(errors).toEqual([])
  const [header, ...rows] = records.map((r) => r.fields)
  const taskAt = header.indexOf('task')
  const goldAt = header.indexOf('gold')
  const ids = [...new Set(rows.map((r) => r[taskAt]))]
  const firstHalf = new Set(ids.slice(0, Math.floor(ids.length / 2)))
  const labeled = [header, ...rows.filter((r) => firstHalf.has(r[taskAt]))]
  const unlabeled = [header, ...rows.filter((r) => !firstHalf.has(r[taskAt])).map((r) => r.map((f, i) => (i === goldAt ? '' : f)))]
  writeFileSync(join(dir, 'labeled.csv'), labeled.map(csvLine).join('\n') + '\n')
  writeFileSync(join(dir, 'unlabeled.csv'), unlabeled.map(csvLine).join('\n') + '\n')
  await run(importCommand, [join(dir, 'labeled.csv'), '--db', db, '--gold-as', 'random'])
  await run(importCommand, [join(dir, 'unlabeled.csv'), '--db', db])
  fitReport = JSON.parse(await run(fitCommand, ['--db', db, '--json'])) as Record<string, unknown>
  const out = join(dir, 'decisions.jsonl')
  await run(exportCommand, ['decisions', '--db', db, '--format', 'jsonl', '--out', out])
  for (const line of readFileSync(out, 'utf8').split('\n')) {
    if (line.trim() === '') continue
    const row = JSON.parse(line) as { task: string; decision: string }
    decisions.set(row.task, row.decision)
  }
  server = await startConsoleServer({ dbLocation: db })
  await setDwell(server, 0)
  browser = await launchChromium()
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } })
  page = await context.newPage()
  page.on('pageerror', (e) => pageErrors.push(String(e)))
  await page.goto(server.host.loginUrl)
  mkdirSync(SHOTS, { recursive: true })
}, 240_000)

afterAll(async () => {
  await browser?.close()
  await server?.close()
  rmSync(dir, { recursive: true, force: true })
})

describeWith([CHROMIUM, dataset('real-debates')], 'a real debate through the loop (cipher-phi4-gsm8k rounds.csv, Chromium)', () => {
  it('fits under the defaults and both acts and defers', () => {
    expect(fitReport.method).toBe('standing-vote')
    const acted = [...decisions.values()].filter((d) => d === 'act').length
    const deferred = [...decisions.values()].filter((d) => d === 'defer').length
    expect(acted).toBeGreaterThanOrEqual(1)
    expect(deferred).toBeGreaterThanOrEqual(1)
  })

  it('shows a deferred task with the posterior, the seat weights and the why with n', async () => {
    await page.goto(`${server.host.url}#/queue`)
    await page.getByTestId('queue-row').first().waitFor()
    await page.keyboard.press('Enter')
    await page.getByTestId('review-task').waitFor()
    const task = (await page.getByTestId('review-task').getAttribute('data-task-id'))!
    expect(decisions.get(task)).toBe('defer')
    // The task's frame shows before its posterior and weights have rendered: wait for them.
    await expect.poll(() => page.getByTestId('posterior-bar').count()).toBeGreaterThanOrEqual(2)
    await expect.poll(() => page.getByTestId('seat-weight').count()).toBe(3)
    const cert = page.getByTestId('cert-gap')
    await expect.poll(() => cert.innerText()).toMatch(/\bn = \d+/)
    await expect.poll(() => page.getByTestId('why-deferred').innerText()).not.toBe('')
    await page.screenshot({ path: join(SHOTS, 'real-debate-deferred.png'), fullPage: true })
  })

  it('shows an acted task with its stop round', async () => {
    const acted = [...decisions].find(([, d]) => d === 'act')![0]
    await page.goto(`${server.host.url}#/review/${encodeURIComponent(acted)}`)
    await page.getByTestId('review-task').waitFor()
    await expect.poll(() => page.getByTestId('cert-gap').getAttribute('data-decision')).toBe('act')
    expect(await page.getByTestId('seat-weight').count()).toBe(3)
    await page.screenshot({ path: join(SHOTS, 'real-debate-acted.png'), fullPage: true })
    expect(pageErrors).toEqual([])
  })
})
