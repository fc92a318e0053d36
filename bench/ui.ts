/**
 * BenchSuite `ui`: the console in Chromium over the web host on a 100,000-task
 * database (3 seats, 3 rounds, K = 2, 1,000 blind labels, fitted and decided so most tasks wait in
 * the queue). Figures: first queue rows visible after load, opening a task (one click on a row),
 * resolve → next task (p95 over 30, each key sent once the task's keys are armed and its reading
 * time — Settings → dwellMs, the default 400 ms — has passed: waited out, never counted), long tasks
 * (> 50 ms) while scrolling the whole queue (a fling) and 880 rows of it at a wheel's pace, opening
 * a task of a megabyte of text, and resolve → next again while the background refit that every
 * label starts is running.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { launchChromium } from '../test/e2e/browser'
import { startConsoleServer } from '../src/main/console-server'
import { updateEngineSettings } from '../src/main/service/engine-settings'
import { fitAndDecide } from '../src/main/service/fit/run-fit'
import { runImport } from '../src/main/service/import'
import { cleanCouncil, toJsonl } from '../src/main/sim'
import { openStore, type Actor } from '../src/main/store'
import { hashHex } from '../src/main/engine/hash'
import type { BenchSuite, Figure } from './figure'

const TASKS = 100_000
const LABELS = 1000
const ACTOR: Actor = { reviewer: 'bench', sessionId: 'bench-ui', shell: 'cli' }

export async function buildDatabase(dbLocation: string, dir: string): Promise<void> {
  const traces = [...cleanCouncil({ tasks: TASKS, seed: 7 })]
  const file = join(dir, 'bench.trace.jsonl')
  writeFileSync(file, traces.map((t) => `${toJsonl(t)}\n`).join(''))
  const store = await openStore(dbLocation)
  try {
    const res = await runImport(store, { path: file, fileName: 'bench.trace.jsonl', displayName: 'bench.trace.jsonl', kind: 'traces', skipInvalid: false, goldAs: null, dialect: { columns: ['task', 'worker', 'label'], header: true }, goldName: null }, ACTOR)
    if (res.status !== 'imported') throw new Error(`bench import failed: ${res.status}`)
    const drawn = traces.map((t) => t.task).sort((a, b) => (hashHex(`ui:${a}`) < hashHex(`ui:${b}`) ? -1 : 1)).slice(0, LABELS)
    const gold = new Map(traces.map((t) => [t.task, t.gold as string]))
    const at = new Date().toISOString()
    await store.importLabels({ fileName: 'bench-labels', sha256: hashHex('bench-labels'), kind: 'labels', labels: drawn.map((taskId) => ({ taskId, label: gold.get(taskId)!, source: 'random' as const, reviewer: 'bench', at, note: null })) }, ACTOR)
    // A tight budget so that most of the 100,000 tasks are deferred: the queue is what is measured.
    const settings = await updateEngineSettings(store, { budget: { kind: 'absolute', beta: 0.08 }, autoRefit: false }, ACTOR)
    await fitAndDecide(store, { settings, redecide: null }, ACTOR)
  } finally {
    await store.close()
  }
}

async function firstRows(page: Page, url: string): Promise<number> {
  const t0 = Date.now()
  await page.goto(url)
  await page.getByTestId('queue-row').first().waitFor({ timeout: 30_000 })
  return Date.now() - t0
}

/** ms from the last `arbiter:<what>-key` mark to the `arbiter:shown:<task>` mark (perf-marks.ts). */
async function markedLatency(page: Page, what: 'open' | 'resolve', taskId: string): Promise<number> {
  const marks = `performance.getEntriesByType('mark')`
  return (await page.evaluate(`(async () => {
    for (let i = 0; i < 100; i++) {
      const shown = ${marks}.filter((m) => m.name === ${JSON.stringify(`arbiter:shown:${taskId}`)}).at(-1)
      const key = ${marks}.filter((m) => m.name === 'arbiter:${what}-key').at(-1)
      if (shown && key) return shown.startTime - key.startTime
      await new Promise((r) => setTimeout(r, 20))
    }
    return NaN
  })()`)) as number
}

/**
 * The review screen once its keys are armed and the task has been on screen for the reading time:
 * a key sent earlier is dropped by design. The wait precedes the key, so it is no part of resolve → next.
 */
const ARMED = '[data-testid="review-task"][data-keys-armed="true"][data-dwell-met="true"]'

/** One click on a row opens it: timed from the click. */
async function openTask(page: Page): Promise<number> {
  const row = page.getByTestId('queue-row').first()
  // A reviewer's pause on a row before the click: the console fetches the row under the pointer ahead.
  await row.hover()
  await page.waitForTimeout(300)
  await row.click()
  await page.getByTestId('transcript-move').first().waitFor()
  return markedLatency(page, 'open', (await page.getByTestId('review-task').getAttribute('data-task-id'))!)
}

async function resolveNext(page: Page, n: number): Promise<number[]> {
  const times: number[] = []
  for (let i = 0; i < n; i++) {
    await page.locator(ARMED).waitFor()
    const before = await page.getByTestId('review-task').getAttribute('data-task-id')
    await page.keyboard.press('1')
    // A locator, not waitForFunction: the console's CSP forbids the eval the latter needs.
    const next = page.locator(`[data-testid="review-task"]:not([data-task-id=${JSON.stringify(before)}])`)
    await next.waitFor()
    times.push(await markedLatency(page, 'resolve', (await next.getAttribute('data-task-id'))!))
    await page.waitForTimeout(150) // a reviewer reads before the next key
  }
  return times
}

/**
 * Long tasks (PerformanceObserver) while the queue scrolls, from its top: `fling` crosses all of it in
 * 100 jumps two frames apart (the scrollbar dragged: the pages it passes are not fetched);
 * `wheel` moves 100 px a frame for 300 frames (880 rows: every page it brings into view is fetched
 * and drawn while it scrolls).
 */
async function scrollLongTasks(page: Page, how: 'fling' | 'wheel'): Promise<{ longTasks: number; worst: number }> {
  await page.goto(page.url().replace(/#.*/, '#/queue'))
  await page.getByTestId('queue-row').first().waitFor()
  const steps = how === 'fling' ? 'for (let i = 1; i <= 100; i++) { el.scrollTop = (el.scrollHeight * i) / 100; await frame(); await frame() }' : 'for (let i = 1; i <= 300; i++) { el.scrollTop += 100; await frame() }'
  // A string, not a function: tsx would inject its __name helper, which the page does not have.
  return page.evaluate(`(async () => {
    const durations = []
    const el = document.querySelector('.queue-scroll')
    el.scrollTop = 0
    const frame = () => new Promise((r) => requestAnimationFrame(() => r()))
    // The virtualizer's scrolling flag clears 150 ms after the last scroll event.
    await new Promise((r) => setTimeout(r, 300))
    const obs = new PerformanceObserver((list) => list.getEntries().forEach((e) => durations.push(e.duration)))
    obs.observe({ type: 'longtask', buffered: false })
    ${steps}
    await new Promise((r) => setTimeout(r, 300))
    obs.disconnect()
    return { longTasks: durations.filter((d) => d > 50).length, worst: Math.max(0, ...durations) }
  })()`) as Promise<{ longTasks: number; worst: number }>
}

/** A task of a megabyte of text: its question, two candidates and five move texts. */
const LONG_TASK = 'bench-long-text'
const LONG_TASK_CHARS = 1_000_000

async function importLongTask(dbLocation: string, dir: string): Promise<void> {
  const prose = (marker: string, n: number) => `${marker} ${'lorem ipsum dolor sit amet '.repeat(Math.ceil(n / 27))}`.slice(0, n)
  const candidates = [prose('first', 100_000), prose('second', 100_000)]
  const moves = [0, 1, 2, 3, 4].map((i) => ({ id: `m${i}`, round: i < 3 ? 0 : 1, seat: `A${i % 3}`, force: 'propose', answer: candidates[i % 2], text: prose(`move ${i}`, 120_000) }))
  const file = join(dir, 'long.trace.jsonl')
  writeFileSync(file, `${JSON.stringify({ task: LONG_TASK, question: prose('question', LONG_TASK_CHARS - 800_000), candidates, moves })}\n`)
  const store = await openStore(dbLocation)
  try {
    const res = await runImport(store, { path: file, fileName: 'long.trace.jsonl', displayName: 'long.trace.jsonl', kind: 'traces', skipInvalid: false, goldAs: null, dialect: { columns: ['task', 'worker', 'label'], header: true }, goldName: null }, ACTOR)
    if (res.status !== 'imported' && res.status !== 'already-imported') throw new Error(`bench long-text import failed: ${res.status}`)
  } finally {
    await store.close()
  }
}

/** From the queue to the long task's review screen (a route change, its detail fetched): the median of 3. */
async function openLongTask(page: Page, base: string): Promise<number> {
  const times: number[] = []
  for (let i = 0; i < 3; i++) {
    await page.goto(`${base}#/queue`)
    await page.getByTestId('queue-row').first().waitFor()
    const t0 = Date.now()
    await page.goto(`${base}#/review/${encodeURIComponent(LONG_TASK)}`)
    await page.locator(`[data-testid="review-task"][data-task-id="${LONG_TASK}"]`).waitFor()
    times.push(Date.now() - t0)
  }
  return [...times].sort((a, b) => a - b)[1]
}

/**
 * The realistic case: background refits on (each label schedules one), the first
 * under way before the first timed key, then resolve → next timed as above. Returns the times
 * and at how many of the keys a refit was running (fits.status right after each).
 */
async function resolveNextDuringRefit(page: Page, server: Awaited<ReturnType<typeof startConsoleServer>>, n: number): Promise<{ times: number[]; during: number }> {
  const call = <M extends 'engine.updateSettings' | 'fits.status'>(method: M, args: Parameters<typeof server.service.handlers[M]>[0]) =>
    server.service.handlers[method](args as never, server.service.context()) as ReturnType<typeof server.service.handlers[M]>
  await call('engine.updateSettings', { patch: { autoRefit: true, refitDelayMs: 0 } })
  await resolveNext(page, 1) // a label: it starts the first refit
  for (let i = 0; i < 600 && !(await call('fits.status', {})).running; i++) await page.waitForTimeout(50)
  const times: number[] = []
  let during = 0
  for (let i = 0; i < n; i++) {
    times.push(...(await resolveNext(page, 1)))
    if ((await call('fits.status', {})).running) during++
  }
  // A reused database stays as it was built: no background refit.
  await call('engine.updateSettings', { patch: { autoRefit: false } })
  return { times, during }
}

const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.ceil(0.95 * xs.length) - 1]
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]
/** The median and the slowest three: a p95 of 30 is the second slowest, so the tail says what it is made of. */
const spread = (xs: number[]) => `median ${median(xs).toFixed(0)} ms, slowest ${[...xs].sort((a, b) => b - a).slice(0, 3).map((x) => x.toFixed(0)).join(', ')} ms`

export const ui: BenchSuite = {
  name: 'ui',
  summary: 'console in Chromium on 100,000 tasks: first rows, open, resolve → next, scroll',
  async run(): Promise<Figure[]> {
    const dir = mkdtempSync(join(tmpdir(), 'arbiter-bench-ui-'))
    // ARBITER_BENCH_UI_DB reuses a database built by an earlier run (it is only read and labeled).
    const reuse = process.env.ARBITER_BENCH_UI_DB
    const dbLocation = reuse ?? join(dir, 'arbiter.db')
    const t0 = Date.now()
    if (!reuse) await buildDatabase(dbLocation, dir)
    const buildMs = Date.now() - t0
    await importLongTask(dbLocation, dir)
    const server = await startConsoleServer({ dbLocation })
    const browser = await launchChromium()
    try {
      const page = await browser.newPage({ viewport: { width: 1400, height: 900 } })
      await page.goto(server.host.loginUrl)

      const deferred = (await server.service.handlers['app.counts']({}, server.service.context())).deferred
      const { dwellMs } = await server.service.handlers['settings.get']({}, server.service.context())
      // A full page load each time (the query string defeats same-document hash navigation).
      await firstRows(page, `${server.host.url}?load=0#/queue`) // warm-up
      const loads: number[] = []
      for (let i = 1; i <= 5; i++) loads.push(await firstRows(page, `${server.host.url}?load=${i}#/queue`))
      const first = [...loads].sort((a, b) => a - b)[2]
      const open = await openTask(page)
      const resolves = await resolveNext(page, 30)
      const scroll = await scrollLongTasks(page, 'fling')
      const wheel = await scrollLongTasks(page, 'wheel')
      const openLong = await openLongTask(page, server.host.url)
      // Last: the refits it starts would disturb every figure above.
      await page.goto(`${server.host.url}#/queue`)
      await page.getByTestId('queue-row').first().click()
      const duringRefit = await resolveNextDuringRefit(page, server, 30)
      const f = (name: string, value: number, unit: string, target: number | null, better: 'lower' | 'higher' = 'lower', note?: string): Figure => ({ suite: 'ui', name, value, unit, target, better, reference: null, note })
      return [
        f(`database build (${TASKS} tasks imported, fitted, decided; ${deferred} deferred)`, buildMs, 'ms', null),
        f('queue: first rows visible after a page load (median of 5)', first, 'ms', 1500),
        f('open a task (click → transcript shown)', open, 'ms', 150),
        f('resolve → next task shown, p95 of 30', p95(resolves), 'ms', 100, 'lower', `${spread(resolves)}; each key sent after the ${dwellMs} ms reading time (waited out, not counted)`),
        f(`scroll ${deferred} queue rows: long tasks > 50 ms`, scroll.longTasks, 'count', 0, 'lower', `worst task ${scroll.worst.toFixed(0)} ms`),
        f('scroll 880 queue rows at a wheel’s pace (100 px a frame): long tasks > 50 ms', wheel.longTasks, 'count', 0, 'lower', `worst task ${wheel.worst.toFixed(0)} ms`),
        f('open a task with 1 MB of text (queue → review shown, median of 3)', openLong, 'ms', 300),
        f('resolve → next task shown while the background refit runs, p95 of 30', p95(duringRefit.times), 'ms', 100, 'lower', `${spread(duringRefit.times)}; a refit was running after ${duringRefit.during} of 30 keys`)
      ]
    } finally {
      await browser.close()
      await server.close()
      rmSync(dir, { recursive: true, force: true })
    }
  }
}
