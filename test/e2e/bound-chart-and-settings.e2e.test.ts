/**
 * The engine settings form and the certificate's bound chart, on the demo database in Chromium:
 * - the engine settings form submits as installed, each numeric field takes exactly what
 *   the settings schema takes (typed key by key, as a reviewer types), and says why it refuses;
 * - the bound chart states 1 − α as a number, marks the best round, and shows the rounds
 *   after a task's last real round as repeated state (docs/engine.md §8.1); the queue's gap column has
 *   enough digits that neighbouring gaps read apart.
 * Screenshots of each changed screen: light and dark, 1440 and 1024 wide.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { TaskDetail } from '../../src/shared/api'
import { budgetSchema, engineSettingsSchema } from '../../src/shared/contract/settings'
import type { ConsoleServer } from '../../src/main/console-server'
import { createDemoDatabase } from '../../src/main/service/demo'
import { CHROMIUM, openConsole, SCHEMES, SHOTS, WIDTHS, type OpenConsole } from './browser'
import { describeWith } from '../helpers/prerequisites'

let dir: string
let open: OpenConsole | undefined
let server: ConsoleServer
let page: Page
let pageErrors: string[]

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'arbiter-e2e-console-ii-'))
  const dbLocation = join(dir, 'arbiter.db')
  await createDemoDatabase(dbLocation)
  open = await openConsole(dbLocation)
  ;({ server, page, pageErrors } = open)
})

afterAll(async () => {
  await open?.close()
  rmSync(dir, { recursive: true, force: true })
})

const call = <M extends 'queue.page' | 'task.detail' | 'fits.list' | 'engine.getSettings'>(method: M, args: Parameters<ConsoleServer['service']['handlers'][M]>[0]) =>
  server.service.handlers[method](args as never, server.service.context()) as ReturnType<ConsoleServer['service']['handlers'][M]>

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

const lastRealRound = (d: TaskDetail): number => Math.max(...d.moves.map((m) => m.round))

/** Deferred tasks (the first 200 of the queue) with a certificate, split by whether their trace ran every round. */
async function deferredDetails(): Promise<TaskDetail[]> {
  const queue = await call('queue.page', {
    filter: { decision: 'defer', group: null, seat: null, candidate: null, labelSource: null, spotCheck: null, search: null },
    sort: 'gap',
    direction: 'asc',
    offset: 0,
    limit: 200
  })
  const details = await Promise.all(queue.rows.map((r) => call('task.detail', { taskId: r.taskId, blind: false })))
  return details.filter((d) => d.verdict?.decision?.why != null && d.verdict.decision.threshold !== null)
}

describeWith(CHROMIUM, 'the bound chart and the queue gap (Chromium, demo database)', () => {
  it('shows 1 − α as a number, marks the best round, and draws rounds after the last real one as repeated state', async () => {
    const details = await deferredDetails()
    const padded = details.find((d) => lastRealRound(d) < d.verdict!.rounds.length - 1)
    const full = details.find((d) => lastRealRound(d) === d.verdict!.rounds.length - 1)
    expect(padded, 'a deferred demo task whose debate ended before the last round').toBeDefined()

    for (const d of [padded!, full]) {
      // The control (a trace that ran every round: nothing drawn as repeated) comes second.
      expect(d, 'a deferred demo task whose debate ran every round').toBeDefined()
      if (d === undefined) return
      const decision = d.verdict!.decision!
      await page.goto(`${server.host.url}#/review/${encodeURIComponent(d.task.id)}`)
      await expect.poll(() => page.getByTestId('review-task').getAttribute('data-task-id')).toBe(d.task.id)
      const threshold = page.getByTestId('cert-threshold')
      await threshold.waitFor()
      expect(Number(await threshold.getAttribute('data-threshold'))).toBe(decision.threshold)
      expect(await threshold.textContent()).toContain(`1 − α = ${decision.threshold!.toFixed(3)}`)
      const best = page.getByTestId('cert-best-round')
      expect(Number(await best.getAttribute('data-round'))).toBe(decision.why!.round)
      expect(await best.textContent()).toContain(`L = ${d.verdict!.rounds[decision.why!.round].bound!.toFixed(3)}`)
      const repeated = page.getByTestId('cert-repeated')
      if (d === padded) {
        expect(Number(await repeated.getAttribute('data-first-round'))).toBe(lastRealRound(d) + 1)
        expect(Number(await repeated.getAttribute('data-last-round'))).toBe(d.verdict!.rounds.length - 1)
        await screenshots('review-bound-chart', () => page.getByTestId('cert-repeated').waitFor())
      } else {
        expect(await repeated.count()).toBe(0)
      }
    }
  })

  it('shows gaps in the queue with enough digits that neighbouring gaps read apart', async () => {
    await page.goto(`${server.host.url}#/queue`)
    await page.getByTestId('queue-row').first().waitFor()
    await page.getByTestId('queue-gap').first().waitFor()
    const shown = await page.getByTestId('queue-gap').evaluateAll((els) => els.map((e) => ({ gap: Number(e.getAttribute('data-gap')), text: e.textContent ?? '' })))
    expect(shown.length).toBeGreaterThan(10)
    const raw = await call('queue.page', {
      filter: { decision: 'defer', group: null, seat: null, candidate: null, labelSource: null, spotCheck: null, search: null },
      sort: 'gap',
      direction: 'asc',
      offset: 0,
      limit: shown.length
    })
    expect(shown.map((s) => s.gap)).toEqual(raw.rows.map((r) => r.gap))
    let closePairs = 0
    for (let i = 0; i < shown.length; i++) {
      // The number shown is the gap to within half a unit of its last digit, and no coarser than 0.001.
      expect(Math.abs(Number(shown[i].text) - shown[i].gap), shown[i].text).toBeLessThanOrEqual(0.0005 + 1e-12)
      if (i === 0) continue
      const step = Math.abs(shown[i].gap - shown[i - 1].gap)
      if (step >= 0.001) expect(shown[i].text, `gaps ${shown[i - 1].gap} and ${shown[i].gap}`).not.toBe(shown[i - 1].text)
      if (step >= 0.001 && step < 0.01) closePairs++
    }
    // The demo's queue has neighbours that differ only past the second decimal: the case this is about.
    expect(closePairs).toBeGreaterThan(0)
    await screenshots('queue-gap', () => page.getByTestId('queue-gap').first().waitFor())
  })
})

describeWith(CHROMIUM, 'the engine settings take every value the schema takes (Chromium, demo database)', () => {
  const fields = [
    { testId: 'settings-budget', name: 'β', schema: budgetSchema.options[2].shape.beta, texts: ['0', '0.3', '1', '0.125', '1e-3', '.5', '-0.1', '1.01', '0,3', 'abc', ''] },
    { testId: 'settings-delta', name: 'δ', schema: engineSettingsSchema.shape.delta, texts: ['0.03', '0.031', '0.0001', '0.4999', '0.001', '0', '0.5', '0.6', '-0.01'] },
    { testId: 'settings-eps-act', name: 'ε_act', schema: engineSettingsSchema.shape.epsAct, texts: ['0', '0.02', '0.013', '0.4999', '0.5', '-0.001'] },
    { testId: 'settings-spot-rate', name: 'Spot-check rate ρ', schema: engineSettingsSchema.shape.spotRate, texts: ['0', '0.05', '0.333', '1', '1.5', '-1'] }
  ] as const

  /** Types into a field the way a reviewer does: select what is there, delete it, type key by key. */
  async function typeInto(testId: string, text: string): Promise<void> {
    const field = page.getByTestId(testId)
    await field.click()
    await page.keyboard.press('ControlOrMeta+A')
    await page.keyboard.press('Backspace')
    await page.keyboard.type(text)
  }

  it('submits as installed: the form is valid with the default settings and Save and refit refits', async () => {
    await page.goto(`${server.host.url}#/settings`)
    await page.getByTestId('settings-budget').waitFor()
    // The browser's own constraint check (step/min/max) is what blocked the default δ = 0.03.
    expect(await page.getByTestId('settings-budget').evaluate((el) => (el as unknown as { form: { checkValidity(): boolean } }).form.checkValidity())).toBe(true)
    const before = await call('engine.getSettings', {})
    const fits = (await call('fits.list', { limit: 500 })).length
    await page.getByTestId('settings-save').click()
    await expect.poll(async () => (await call('fits.list', { limit: 500 })).length, { timeout: 45_000 }).toBeGreaterThan(fits)
    expect(await call('engine.getSettings', {})).toEqual(before)
  })

  it('keeps what is typed as typed, accepts exactly what the schema accepts, and says why it refuses the rest', async () => {
    await page.goto(`${server.host.url}#/settings`)
    await page.getByTestId('settings-budget').waitFor()
    expect(await page.getByTestId('settings-budget-kind').inputValue()).toBe('absolute')
    for (const f of fields) {
      for (const text of f.texts) {
        await typeInto(f.testId, text)
        expect(await page.getByTestId(f.testId).inputValue(), `${f.name} typed "${text}"`).toBe(text)
        const accepted = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(text) && f.schema.safeParse(Number(text)).success
        expect(await page.getByTestId(f.testId).getAttribute('aria-invalid'), `${f.name} = "${text}"`).toBe(String(!accepted))
        const error = page.getByTestId(`${f.testId}-error`)
        if (accepted) expect(await error.count()).toBe(0)
        else expect(await error.textContent()).toMatch(new RegExp(`^${f.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: (must be|enter a number|use a decimal point|“)`))
      }
    }
    expect(await page.getByTestId('settings-delta-error').textContent()).toBe('δ: must be greater than 0.')

    // A refused value is not saved, and the reason is said at the button.
    await typeInto('settings-budget', '0.2')
    await typeInto('settings-eps-act', '0.02')
    await typeInto('settings-spot-rate', '0.05')
    const before = await call('engine.getSettings', {})
    await typeInto('settings-delta', '0.5')
    await page.getByTestId('settings-save').click()
    await page.getByText('Not saved: δ: must be less than 0.5.').waitFor()
    expect(await call('engine.getSettings', {})).toEqual(before)
    await screenshots('settings-engine-refused', () => page.getByTestId('settings-delta-error').waitFor())

    // Values a step rule would have refused are saved exactly as typed.
    await typeInto('settings-budget', '0.25')
    await typeInto('settings-delta', '0.031')
    await typeInto('settings-eps-act', '0.013')
    await typeInto('settings-spot-rate', '0.333')
    await page.getByTestId('settings-save').click()
    await expect
      .poll(async () => {
        const s = await call('engine.getSettings', {})
        return { budget: s.budget, delta: s.delta, epsAct: s.epsAct, spotRate: s.spotRate }
      }, { timeout: 45_000 })
      .toEqual({ budget: { kind: 'absolute', beta: 0.25 }, delta: 0.031, epsAct: 0.013, spotRate: 0.333 })
    await page.getByRole('status').filter({ hasText: 'Refit done.' }).waitFor({ timeout: 45_000 })
    await screenshots('settings-engine', () => page.getByTestId('settings-save').waitFor())
  })

  it('raised no page errors', () => {
    expect(pageErrors).toEqual([])
  })
})
