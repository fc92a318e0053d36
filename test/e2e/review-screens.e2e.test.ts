/**
 * Review and Adjudicate as a reviewer reads them, on the demo database in Chromium:
 * - Review's verdict column starts under the header, level with the candidates (no empty band
 *   above the decision and the posterior), for an acted and a deferred task at 1440 and 1024 px;
 * - an undo brings its task back whole: the certificate never leaves the screen on the way, and
 *   "left in the queue" already counts the task again when it shows;
 * - Adjudicate shows each disputed task's transcript and posterior beside the labels in dispute;
 * - the queue says how many of its tasks another reviewer holds (left out of the list, yet counted).
 */
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { QueueRow, TaskFilterArgs } from '../../src/shared/api'
import type { ConsoleServer } from '../../src/main/console-server'
import { CHROMIUM, openDemoConsole, SHOTS, WIDTHS, type OpenConsole } from './browser'
import { describeWith } from '../helpers/prerequisites'

const SOON = { timeout: 5000 }

let open: OpenConsole | undefined
let server: ConsoleServer
let page: Page
let pageErrors: string[]

beforeAll(async () => {
  open = await openDemoConsole('review-screens')
  ;({ server, page, pageErrors } = open)
})

afterAll(async () => {
  await open?.close()
})

const FILTER: TaskFilterArgs = { decision: 'defer', group: null, seat: null, candidate: null, labelSource: null, spotCheck: null, search: null }
async function queue(decision: 'act' | 'defer'): Promise<QueueRow[]> {
  const q = await server.service.handlers['queue.page']({ filter: { ...FILTER, decision }, sort: 'gap', direction: 'asc', offset: 0, limit: 50 }, server.service.context())
  return q.rows.filter((r) => r.label === null && r.reservedBy === null)
}
const armed = (taskId: string) => page.locator(`[data-testid="review-task"][data-task-id=${JSON.stringify(taskId)}][data-keys-armed="true"]`).waitFor(SOON)
const shownTask = () => page.getByTestId('review-task').getAttribute('data-task-id', { timeout: 1000 }).catch(() => null)
const left = () => page.getByTestId('review-progress').getAttribute('data-left', { timeout: 1000 }).catch(() => null)

describeWith(CHROMIUM, 'Review, Adjudicate and the queue as a reviewer reads them (Chromium)', () => {
  it('starts the verdict column level with the candidates, for an acted and a deferred task at 1440 and 1024 px', async () => {
    const tasks = { acted: (await queue('act'))[0].taskId, deferred: (await queue('defer'))[0].taskId }
    for (const [kind, taskId] of Object.entries(tasks)) {
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 900 })
        await page.goto(`${server.host.url}#/review/${encodeURIComponent(taskId)}`)
        await page.locator('#posterior-heading').waitFor(SOON)
        const box = (await page.evaluate(`(() => {
          const top = (sel) => document.querySelector(sel).getBoundingClientRect().top
          return { header: document.querySelector('.review-header').getBoundingClientRect().bottom, candidates: top('.candidates'), side: top('.review-side'), decision: top('[data-testid="decision-answer"], .decision-panel') }
        })()`)) as { header: number; candidates: number; side: number; decision: number }
        await page.screenshot({ path: join(SHOTS, `review-gap-${kind}-${width}-after.png`), fullPage: true })
        // The verdict column starts where the candidates do, right under the header: no band of empty
        // space above the decision and the posterior.
        expect(Math.abs(box.side - box.candidates), `${kind} at ${width} px`).toBeLessThan(12)
        expect(box.decision - box.header, `${kind} at ${width} px`).toBeLessThan(40)
      }
    }
    await page.setViewportSize({ width: 1440, height: 900 })
  })

  it('brings an undone task back whole: the certificate stays on screen, and the queue counts it again as it shows', async () => {
    const [a] = await queue('defer')
    await page.goto(`${server.host.url}#/review/${encodeURIComponent(a.taskId)}`)
    await armed(a.taskId)
    await page.getByTestId('cert-gap').waitFor(SOON)
    await expect.poll(left, SOON).not.toBe('')
    const before = await left()
    await page.keyboard.press('1')
    await expect.poll(shownTask, SOON).not.toBe(a.taskId)
    const b = (await shownTask())!
    await armed(b)
    await page.getByTestId('cert-gap').waitFor(SOON)
    // The label's own refresh has landed: one task fewer left.
    await expect.poll(left, { timeout: 10_000 }).toBe(String(Number(before) - 1))

    // Every change of the screen from the undo on, as the page saw it.
    await page.evaluate(`(() => {
      window.__frames = []
      let last = ''
      const snap = () => {
        const task = document.querySelector('[data-testid="review-task"]')
        const s = JSON.stringify({ task: task ? task.getAttribute('data-task-id') : null, cert: document.querySelector('[data-testid="cert-gap"]') !== null, left: document.querySelector('[data-testid="review-progress"]')?.getAttribute('data-left') ?? null })
        if (s !== last) window.__frames.push(JSON.parse(last = s))
      }
      snap()
      new MutationObserver(snap).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true })
    })()`)
    await page.keyboard.press('Backspace')
    await expect.poll(shownTask, SOON).toBe(a.taskId)
    await armed(a.taskId)
    await page.waitForTimeout(1500)
    const frames = (await page.evaluate('window.__frames')) as { task: string | null; cert: boolean; left: string | null }[]
    const gaps = frames.filter((f) => f.task === null || !f.cert)
    expect(gaps, JSON.stringify(frames)).toEqual([])
    const back = frames.find((f) => f.task === a.taskId)!
    expect(back.left, JSON.stringify(frames)).toBe(before)
    expect(pageErrors).toEqual([])
  })

  it('shows the disputed task’s posterior and transcript beside the labels in dispute on Adjudicate', async () => {
    const h = server.service.handlers
    const ctx = server.service.context()
    await h['team.updateSettings']({ patch: { reviewersPerTask: 2 } }, ctx)
    // Two reviewers label one deferred task differently: it awaits a ruling.
    const [t] = await queue('defer')
    const alice = { ...ctx, reviewer: 'alice', sessionId: 'alice-1' }
    const bob = { ...ctx, reviewer: 'bob', sessionId: 'bob-1' }
    const first = await h['labels.resolve']({ taskId: t.taskId, label: t.candidates[0], expectedVersion: t.version, source: 'escalation', note: null }, alice)
    await h['labels.resolve']({ taskId: t.taskId, label: t.candidates[1], expectedVersion: first.version, source: 'escalation', note: null }, bob)
    const detail = await h['task.detail']({ taskId: t.taskId, blind: false }, ctx)

    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 })
      await page.goto(`${server.host.url}#/adjudicate`)
      const card = page.locator(`[data-testid="adjudicate-task"][data-task-id=${JSON.stringify(t.taskId)}]`)
      await card.waitFor(SOON)
      expect(await card.getByTestId('adjudicate-label').count()).toBe(2)
      const evidence = card.getByTestId('adjudicate-evidence')
      await evidence.getByTestId('posterior-bar').first().waitFor({ state: 'attached', ...SOON })
      // The posterior is the task's own, bar for bar; the transcript holds every move of its debate.
      const bars = await evidence.getByTestId('posterior-bar').evaluateAll((els) => els.map((e) => e.getAttribute('data-candidate')))
      expect(bars).toEqual(detail.task.candidates)
      const moves = await evidence.getByTestId('transcript-move').evaluateAll((els) => els.map((e) => e.getAttribute('data-move-id')))
      expect(moves.sort()).toEqual(detail.moves.map((m) => m.id).sort())
      // Beside the labels, not below them.
      const [labels, ev] = await Promise.all([card.getByTestId('adjudicate-labels').boundingBox(), evidence.boundingBox()])
      expect(ev!.x).toBeGreaterThan(labels!.x + labels!.width - 1)
      expect(ev!.y).toBeLessThan(labels!.y + labels!.height)
      await page.screenshot({ path: join(SHOTS, `adjudicate-evidence-${width}.png`), fullPage: true })
    }
    await page.setViewportSize({ width: 1440, height: 900 })
    expect(pageErrors).toEqual([])
  })

  it('says on the queue how many tasks another reviewer holds, so the list and the deferred count add up', async () => {
    const [t] = await queue('defer')
    const carol = { ...server.service.context(), reviewer: 'carol', sessionId: 'carol-1' }
    expect((await server.service.handlers['task.reserve']({ taskId: t.taskId }, carol)).mine).not.toBeNull()
    try {
      await page.goto(`${server.host.url}#/queue`)
      const total = page.locator('[data-testid="queue-total"][data-held="1"]')
      await total.waitFor(SOON)
      expect(await total.innerText()).toContain('1 held by another reviewer')
      const listed = Number(await total.getAttribute('data-total'))
      const deferred = Number(await page.getByTestId('count-deferred').innerText())
      expect(listed + 1).toBe(deferred)
      await page.screenshot({ path: join(SHOTS, 'queue-held-by-another.png') })
    } finally {
      await server.service.handlers['task.release']({ taskId: t.taskId }, carol)
    }
  })
})
