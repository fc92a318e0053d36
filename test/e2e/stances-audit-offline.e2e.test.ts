/**
 * The debate in Review, the audit charts, and a server that stops or restarts, in Chromium:
 * - a seat × round stance matrix above the transcript (each seat's answer as it stands
 *   per round — the engine's own reading, tallies' current answer — coloured by the sign of its
 *   weight); bare votes collapse into one line per round; beside w_i, the evidence one vote
 *   carries in this task under the fit's method (the standing vote: w_i, once per standing answer);
 * - audit charts with axis titles and legends, the current β marked on the frontier, bin
 *   counts on the reliability diagrams, a drift chart per seat over label time — and "no time
 *   order" (docs/engine.md §9) when the labels were imported at once with `--gold-as`;
 * - a stopped server gives a retry banner (not "run the integrity check") that recovers;
 *   a restarted one gives a page that says so, in the app and on reload (never raw 401 JSON,
 *   never signing in by itself).
 * Two databases: the demo (labels dated along the stream) and a simulated council whose votes
 * carry no text, imported with `--gold-as random` (every label at one time) and fitted.
 * Screenshots of each changed screen: light and dark, 1440 and 1024 wide.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { TaskDetail } from '../../src/shared/api'
import type { Trace } from '../../src/shared/trace'
import { fitCommand } from '../../src/main/cli/commands/fit'
import { importCommand } from '../../src/main/cli/commands/import'
import { startConsoleServer, type ConsoleServer } from '../../src/main/console-server'
import { buildTallies, currentAnswer, SeatIndex } from '../../src/main/engine'
import { createDemoDatabase } from '../../src/main/service/demo'
import { generateCouncil } from '../../src/main/sim/council'
import { toJsonl } from '../../src/main/sim/jsonl'
import { demoCouncilConfig } from '../../src/main/sim/presets'
import { CHROMIUM, launchChromium } from './browser'
import { describeWith } from '../helpers/prerequisites'

const SHOTS = join(__dirname, '../../test-results/screenshots')
const WIDTHS = [1440, 1024] as const
const SCHEMES = ['light', 'dark'] as const
const SOON = { timeout: 15_000 }

let dir: string
let demo: ConsoleServer
let flatDb: string
let flat: ConsoleServer
let browser: Browser
let page: Page
const pageErrors: string[] = []

async function run(cmd: typeof importCommand, argv: string[]): Promise<void> {
  let err = ''
  const code = await cmd.run(argv, { out: () => {}, err: (t) => (err += `${t}\n`) })
  expect(code, err).toBe(0)
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'arbiter-e2e-console-iii-'))
  const demoDb = join(dir, 'demo.db')
  await createDemoDatabase(demoDb)
  demo = await startConsoleServer({ dbLocation: demoDb })

  // A council whose votes are bare (no text), labeled by one import: every label shares one time.
  flatDb = join(dir, 'flat.db')
  const traces = [...generateCouncil(demoCouncilConfig({ seed: 3, tasks: 400 }))].map((t) => ({
    ...t,
    moves: t.moves.map((m) => (m.force === 'vote' ? { ...m, text: undefined } : m))
  }))
  // Half with their gold recorded as labels in one go, half unlabeled (the queue's deferred tasks).
  const labeled = join(dir, 'labeled.jsonl')
  const unlabeled = join(dir, 'unlabeled.jsonl')
  writeFileSync(labeled, traces.slice(0, 200).map((t) => `${toJsonl(t)}\n`).join(''))
  writeFileSync(unlabeled, traces.slice(200).map((t) => `${toJsonl({ ...t, gold: null })}\n`).join(''))
  await run(importCommand, [labeled, '--db', flatDb, '--gold-as', 'random'])
  await run(importCommand, [unlabeled, '--db', flatDb])
  await run(fitCommand, ['--db', flatDb])
  flat = await startConsoleServer({ dbLocation: flatDb, token: 'first-start-token-0123456789' })

  browser = await launchChromium()
  page = await browser.newPage({ viewport: { width: 1440, height: 900 } })
  page.on('pageerror', (e) => pageErrors.push(String(e)))
  await page.goto(demo.host.loginUrl)
  mkdirSync(SHOTS, { recursive: true })
}, 180_000)

afterAll(async () => {
  await browser?.close()
  await demo?.close()
  await flat?.close()
  rmSync(dir, { recursive: true, force: true })
})

type Handlers = ConsoleServer['service']['handlers']
const call = <M extends keyof Handlers>(server: ConsoleServer, method: M, args: Parameters<Handlers[M]>[0]) =>
  server.service.handlers[method](args as never, server.service.context()) as ReturnType<Handlers[M]>

async function screenshots(name: string, ready: () => Promise<unknown>, fullPage = true): Promise<void> {
  for (const width of WIDTHS) {
    for (const scheme of SCHEMES) {
      await page.setViewportSize({ width, height: width === 1440 ? 900 : 700 })
      await page.emulateMedia({ colorScheme: scheme })
      await ready()
      await page.screenshot({ path: join(SHOTS, `${name}-${width}-${scheme}.png`), fullPage })
    }
  }
  await page.setViewportSize({ width: 1440, height: 900 })
  await page.emulateMedia({ colorScheme: 'light' })
}

async function openReview(server: ConsoleServer, taskId: string): Promise<void> {
  await page.goto(`${server.host.url}#/review/${encodeURIComponent(taskId)}`)
  await expect.poll(() => page.getByTestId('review-task').getAttribute('data-task-id'), SOON).toBe(taskId)
  await page.locator('[data-testid="review-task"][data-keys-armed="true"]').waitFor(SOON)
}

async function deferred(server: ConsoleServer, limit: number, decision: 'defer' | null = 'defer'): Promise<TaskDetail[]> {
  const q = await call(server, 'queue.page', {
    filter: { decision, group: null, seat: null, candidate: null, labelSource: null, spotCheck: null, search: null },
    sort: 'gap', direction: 'asc', offset: 0, limit
  })
  return Promise.all(q.rows.map((r) => call(server, 'task.detail', { taskId: r.taskId, blind: false })))
}

/** The engine's reading of each seat's answer per round: the tallies' current answer (docs/engine.md §6, §11). */
function engineStances(d: TaskDetail): Map<string, string | null> {
  const trace: Trace = {
    task: d.task.id,
    candidates: d.task.candidates,
    moves: d.moves.map((m) => ({ id: m.id, round: m.round, seat: m.seat, force: m.force, ...(m.answer === null ? {} : { answer: m.answer }), ...(m.target === null ? {} : { target: m.target }) }))
  }
  const t = buildTallies(trace, new SeatIndex(), null)
  const out = new Map<string, string | null>()
  for (const round of new Set(d.moves.map((m) => m.round))) {
    t.seatIds.forEach((seat, s) => {
      const a = currentAnswer(t, s, round)
      out.set(`${seat}@${round}`, a < 0 ? null : d.task.candidates[a])
    })
  }
  return out
}

describeWith(CHROMIUM, 'stance matrix, collapsed votes, evidence per vote (Chromium)', () => {
  it('shows each seat’s answer as it stands per round, as the engine reads it, coloured by its weight’s sign', async () => {
    const details = (await deferred(demo, 100)).filter((d) => d.verdict !== null)
    // A task where some seat changes its answer between rounds (so the matrix is not one column repeated).
    const changing = details.find((d) => {
      const st = engineStances(d)
      const rounds = [...new Set(d.moves.map((m) => m.round))].sort((a, b) => a - b)
      return d.verdict!.seats.some((s) => new Set(rounds.map((r) => st.get(`${s.seat}@${r}`))).size > 1)
    })
    expect(changing, 'a deferred demo task in which a seat changes its answer').toBeDefined()
    const d = changing!
    await openReview(demo, d.task.id)
    const cells = page.getByTestId('stance-cell')
    await cells.first().waitFor(SOON)
    const shown = await cells.evaluateAll((els) =>
      els.map((e) => ({ seat: e.getAttribute('data-seat'), round: e.getAttribute('data-round'), candidate: e.getAttribute('data-candidate'), cls: e.className, text: e.textContent }))
    )
    const expected = engineStances(d)
    const seats = new Set(d.moves.map((m) => m.seat))
    const rounds = new Set(d.moves.map((m) => m.round))
    expect(shown.length).toBe(seats.size * rounds.size)
    const weights = new Map(d.verdict!.seats.map((s) => [s.seat, s.weight]))
    for (const c of shown) {
      const key = `${c.seat}@${c.round}`
      expect(expected.has(key), key).toBe(true)
      expect(c.candidate, key).toBe(expected.get(key))
      expect(c.text, key).toBe(expected.get(key) ?? '—')
      const w = weights.get(c.seat!)
      expect(c.cls, key).toContain(w === null || w === undefined ? 'seat-none' : w < 0 ? 'seat-neg' : 'seat-pos')
    }
    // The matrix sits above the transcript.
    const matrixBox = await page.getByTestId('stance-matrix').boundingBox()
    const firstMove = await page.getByTestId('transcript-move').first().boundingBox()
    expect(matrixBox!.y + matrixBox!.height).toBeLessThanOrEqual(firstMove!.y)
    await screenshots('review-stance-matrix', () => page.getByTestId('seat-vote-evidence').first().waitFor(SOON))
  })

  it('shows beside w_i the evidence one vote carries under the fit’s method: the standing vote’s w_i, no (K − 1) term', async () => {
    const [d] = (await deferred(demo, 5)).filter((x) => x.verdict !== null)
    const fit = await call(demo, 'fits.get', { fitId: d.verdict!.fitId })
    expect(fit.method).toBe('standing-vote')
    const mu = new Map(fit.seats.map((s) => [s.seat, s.mu]))
    await openReview(demo, d.task.id)
    await page.getByTestId('seat-vote-evidence').first().waitFor(SOON)
    expect(await page.getByTestId('seat-vote-unit').getAttribute('data-unit')).toBe('standing answer')
    expect(await page.getByTestId('seat-vote-unit').innerText()).toMatch(/per vote/i)
    for (const s of d.verdict!.seats) {
      const row = page.locator(`[data-testid="seat-weight"][data-seat="${s.seat}"]`)
      expect(Number(await row.getAttribute('data-weight'))).toBe(s.weight)
      const m = mu.get(s.seat)
      expect(typeof m, s.seat).toBe('number')
      const cell = page.locator(`[data-testid="seat-vote-evidence"][data-seat="${s.seat}"]`)
      const shown = Number(await cell.getAttribute('data-evidence'))
      expect(shown).toBeCloseTo(Math.log(m! / (1 - m!)), 12)
      expect(await cell.textContent()).toBe(`${shown >= 0 ? '+' : ''}${shown.toFixed(2)}`)
    }
  })

  it('collapses a round’s bare votes into one line, every vote still a transcript move', async () => {
    await page.goto(flat.host.loginUrl)
    // This council is easy: its fit acts on every unlabeled task, so any task will do.
    const votesIn = (x: TaskDetail, round: number) => x.moves.filter((m) => m.force === 'vote' && m.round === round).length
    const d = (await deferred(flat, 100, null)).find((x) => x.moves.some((m) => votesIn(x, m.round) >= 2))
    expect(d, 'a task with two votes in one round').toBeDefined()
    await openReview(flat, d!.task.id)
    const votesByRound = new Map<number, string[]>()
    for (const m of d!.moves) if (m.force === 'vote') votesByRound.set(m.round, [...(votesByRound.get(m.round) ?? []), m.id])
    for (const [round, ids] of votesByRound) {
      if (ids.length < 2) continue
      const line = page.locator(`[data-testid="vote-line"][data-round="${round}"]`)
      await line.waitFor(SOON)
      const inLine = await line.getByTestId('transcript-move').evaluateAll((els) => els.map((e) => e.getAttribute('data-move-id')))
      expect(inLine).toEqual(ids)
      // One compact line: no taller than two card headers.
      expect((await line.boundingBox())!.height).toBeLessThan(80)
    }
    expect(await page.getByTestId('transcript-move').count()).toBe(d!.moves.length)
    expect(await page.locator('article[data-testid="transcript-move"][data-force="vote"]').count()).toBe(
      [...votesByRound.values()].filter((ids) => ids.length === 1).length
    )
    await screenshots('review-vote-line', () => page.getByTestId('vote-line').first().waitFor(SOON))
    await page.goto(demo.host.url)
  })
})

describeWith(CHROMIUM, 'audit charts (Chromium)', () => {
  async function openAudit(server: ConsoleServer): Promise<void> {
    await page.goto(`${server.host.url}#/audit`)
    await page.getByTestId('audit-seats').waitFor({ timeout: 60_000 })
  }

  it('titles the axes, shows legends, marks the current β, shows bin counts, and charts drift per seat over label time', async () => {
    await openAudit(demo)
    const summary = await call(demo, 'audit.summary', {})
    // Frontier: the current β as a number and a line; axis titles and a legend.
    const beta = summary.actOrDefer.current!.beta
    const mark = page.getByTestId('frontier-current-beta')
    expect(Number(await mark.getAttribute('data-beta'))).toBe(beta)
    const frontier = page.getByTestId('frontier-chart')
    await expect.poll(() => frontier.locator('.recharts-reference-line').count()).toBe(1)
    const frontierText = await frontier.textContent()
    for (const t of [`current β = ${beta.toFixed(2)}`, 'wrong-action budget β', 'share of tasks', 'acted share', 'wrong actions (share of all)']) expect(frontierText).toContain(t)
    expect(await frontier.locator('.recharts-legend-item').count()).toBe(3)

    // Reliability diagrams: bin counts as given by the audit, axis titles, legends.
    const diagrams = page.getByTestId('reliability-diagram')
    const ran = summary.methods.filter((m) => m.refused === null)
    expect(await diagrams.count()).toBe(ran.length)
    for (const m of ran) {
      const fig = page.locator(`[data-testid="reliability-diagram"][data-method="${m.method}"]`).first()
      const counts = m.bins.filter((b) => b.count > 0 && b.confidence !== null && b.accuracy !== null).map((b) => b.count)
      expect(await fig.getAttribute('data-bin-counts')).toBe(counts.join(','))
      const labels = await fig.locator('.recharts-label-list text').allTextContents()
      expect(labels).toEqual(counts.map(String))
      const text = await fig.textContent()
      for (const t of ['confidence', 'accuracy', 'perfect calibration']) expect(text).toContain(t)
    }

    // Drift: one chart per seat, over label time; the demo's labels are dated, so each has an order.
    const charts = page.getByTestId('audit-drift-chart')
    expect(await charts.count()).toBe(summary.seats.length)
    for (const s of summary.seats) {
      const chart = page.locator(`[data-testid="audit-drift-chart"][data-seat="${s.seat}"]`)
      expect(await chart.getAttribute('data-no-time-order')).toBe('false')
      expect(Number(await chart.getAttribute('data-points'))).toBe(s.driftChart.points.length)
      expect(s.driftChart.points.length).toBeGreaterThan(3)
      expect(await chart.textContent()).toContain('label time')
    }
    // The sleeper the fit flags is drawn as drifting, and its curve falls in the recent window.
    const a5 = summary.seats.find((s) => s.seat === 'A5')!
    expect(a5.drift?.flagged).toBe(true)
    expect(a5.drift?.noTimeOrder).toBe(false)
    const pts = a5.driftChart.points
    expect(pts[pts.length - 1].reliability).toBeLessThan(pts[0].reliability)
    expect(Date.parse(a5.driftChart.recentFrom!)).toBeLessThanOrEqual(Date.parse(pts[pts.length - 1].at))
    await screenshots('audit-charts', () => page.getByTestId('audit-drift-chart').first().waitFor(SOON))
  })

  it('says "no time order" per seat, and flags none, when the labels were imported at once (docs/engine.md §9)', async () => {
    const current = (await call(flat, 'fits.list', { limit: 10 })).find((f) => f.current)
    const fit = await call(flat, 'fits.get', { fitId: current!.id })
    for (const s of fit.seats) {
      expect(s.drift?.noTimeOrder, s.seat).toBe(true)
      expect(s.drift?.flagged, s.seat).toBe(false)
    }
    await page.goto(flat.host.loginUrl)
    await openAudit(flat)
    const charts = page.getByTestId('audit-drift-chart')
    expect(await charts.count()).toBe(fit.seats.length)
    for (const s of fit.seats) {
      const chart = page.locator(`[data-testid="audit-drift-chart"][data-seat="${s.seat}"]`)
      expect(await chart.getAttribute('data-no-time-order')).toBe('true')
      expect(await chart.getByTestId('drift-no-time-order').textContent()).toContain('No time order')
    }
    expect(await page.getByTestId('audit-seats').textContent()).not.toContain('drifting')
    await screenshots('audit-no-time-order', () => page.getByTestId('drift-no-time-order').first().waitFor(SOON))
  })
})

describeWith(CHROMIUM, 'offline and a restarted server (Chromium)', () => {
  it('shows a retry banner while the server is down and recovers when it answers again', async () => {
    await page.goto(flat.host.loginUrl)
    await page.goto(`${flat.host.url}#/queue`)
    await page.getByTestId('count-tasks').waitFor(SOON)
    const port = flat.host.port
    await flat.close()
    // A screen that needs the server: it waits for it instead of blaming the database.
    await page.getByTestId('nav-audit').click()
    const banner = page.getByTestId('offline-banner')
    await banner.waitFor(SOON)
    expect(await banner.textContent()).toContain('not answering')
    expect(await page.textContent('body')).not.toContain('integrity check')
    await screenshots('offline-banner', () => banner.waitFor(SOON), false)

    // The same server back (same token, as after a network blip): Retry, and the screen loads.
    flat = await startConsoleServer({ dbLocation: flatDb, port, token: 'first-start-token-0123456789' })
    await page.getByTestId('offline-retry').click()
    await banner.waitFor({ state: 'detached', ...SOON })
    await page.getByTestId('audit-seats').waitFor({ timeout: 60_000 })
  })

  it('after a restart says the server restarted and to open its printed URL, in the app and on reload, without signing in', async () => {
    await page.goto(`${flat.host.url}#/queue`)
    await page.getByTestId('count-tasks').waitFor(SOON)
    const port = flat.host.port
    await flat.close()
    // A restart draws a new token.
    flat = await startConsoleServer({ dbLocation: flatDb, port })
    // The page notices by itself (its event stream drops and is answered 401 on reconnecting).
    const restarted = page.getByTestId('server-restarted')
    await restarted.waitFor({ timeout: 30_000 })
    const text = await restarted.textContent()
    expect(text).toContain('restarted')
    expect(text).toContain('arbiter serve')
    expect(await page.getByTestId('offline-banner').count()).toBe(0)
    await screenshots('server-restarted-app', () => restarted.waitFor(SOON), false)

    // A reload: a page, not raw 401 JSON; and it does not sign in by itself.
    const res = await page.reload()
    expect(res!.status()).toBe(401)
    expect(res!.headers()['content-type']).toContain('text/html')
    const body = await page.textContent('body')
    expect(body).not.toContain('"ok":false')
    expect(await page.getByTestId('server-restarted').getAttribute('data-restarted')).toBe('true')
    expect(await page.getByTestId('server-restarted').textContent()).toContain('arbiter serve')
    expect(new URL(page.url()).searchParams.get('token')).toBeNull()
    await screenshots('server-restarted-page', () => page.getByTestId('server-restarted').waitFor(SOON), false)

    // Only the printed URL signs in again.
    await page.goto(flat.host.loginUrl)
    await page.getByTestId('nav-queue').waitFor(SOON)
    expect(pageErrors).toEqual([])
  })
})
