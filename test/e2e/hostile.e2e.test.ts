import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startConsoleServer, type ConsoleServer } from '../../src/main/console-server'
import { CONTENT_SECURITY_POLICY } from '../../src/main/host/hardening'
import { runImport } from '../../src/main/service/import'
import { openStore } from '../../src/main/store'
import type { Trace } from '../../src/shared/trace'
import { HOSTILE_PAYLOADS as P } from '../fixtures/hostile/payloads'
import { TEST_ACTOR } from '../helpers/seed'
import { CHROMIUM, launchChromium, setDwell } from './browser'
import { describeWith } from '../helpers/prerequisites'

// Each task carries four payloads: the question, a candidate, a seat id and a move's text.
const TASKS: Trace[] = Array.from({ length: Math.ceil(P.length / 4) }, (_, k) => {
  const at = (i: number) => P[(4 * k + i) % P.length]
  const seat = at(2)
  return {
    task: k === 0 ? 'x"><img src=x onerror=window.__pwned=99>' : `hostile-${k}`,
    question: at(0),
    candidates: [at(1), `safe answer ${k}`],
    group: P[k % P.length],
    seats: [{ id: seat, model: at(3) }],
    moves: [
      { id: 'm1', round: 0, seat, force: 'propose', answer: at(1), text: at(3) },
      { id: 'm2', round: 0, seat: 'honest', force: 'propose', answer: `safe answer ${k}`, text: at(0) },
      { id: 'm3', round: 1, seat: 'honest', force: 'challenge', target: 'm1', text: at(2) }
    ]
  }
})

let dir: string
let server: ConsoleServer
let browser: Browser
let page: Page
const dialogs: string[] = []
const foreign: string[] = []

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'arbiter-e2e-hostile-'))
  const dbLocation = join(dir, 'arbiter.db')
  const file = join(dir, 'hostile.trace.jsonl')
  writeFileSync(file, TASKS.map((t) => JSON.stringify(t)).join('\n'))
  const store = await openStore(dbLocation)
  try {
    const res = await runImport(store, { path: file, fileName: 'hostile.trace.jsonl', displayName: 'hostile.trace.jsonl', kind: 'traces', skipInvalid: false, goldAs: null, dialect: { columns: ['task', 'worker', 'label'], header: true }, goldName: null }, TEST_ACTOR)
    expect(res.status).toBe('imported')
  } finally {
    await store.close()
  }
  server = await startConsoleServer({ dbLocation })
  await setDwell(server, 0)
  browser = await launchChromium()
  page = await browser.newPage({ viewport: { width: 1300, height: 900 } })
  page.on('dialog', (d) => {
    dialogs.push(d.message())
    void d.dismiss()
  })
  page.on('request', (r) => {
    const host = new URL(r.url()).hostname
    if (!['127.0.0.1', 'localhost'].includes(host) && !r.url().startsWith('data:') && !r.url().startsWith('blob:')) foreign.push(r.url())
  })
})

afterAll(async () => {
  await browser?.close()
  await server?.close()
  rmSync(dir, { recursive: true, force: true })
})

describeWith(CHROMIUM, `hostile transcripts (${P.length} payloads) render as inert text`, () => {
  it('serves the console with its CSP header', async () => {
    const res = await page.goto(server.host.loginUrl)
    expect(res?.headers()['content-security-policy']).toBe(CONTENT_SECURITY_POLICY)
  })

  it('shows every payload verbatim in the review screen, and nothing runs, loads or is injected', async () => {
    for (const t of TASKS) {
      await page.goto(`${server.host.url}#/review/${encodeURIComponent(t.task)}`)
      const root = page.getByTestId('review-task')
      await root.waitFor()
      expect(await root.getAttribute('data-task-id')).toBe(t.task)
      expect(await page.locator('.question').first().textContent()).toBe(t.question)
      const candidates = await page.getByTestId('review-candidate').evaluateAll((els) => els.map((e) => e.getAttribute('data-candidate')))
      expect(candidates).toEqual(t.candidates)
      const moves = page.getByTestId('transcript-move')
      expect(await moves.count()).toBe(3)
      expect(await moves.nth(0).getAttribute('data-seat')).toBe(t.moves[0].seat)
      expect(await moves.nth(0).locator('.seat-chip').textContent()).toBe(t.moves[0].seat)
      for (let i = 0; i < 3; i++) {
        // A long text shows its start with an expander: opened, it is the payload verbatim.
        const text = moves.nth(i).locator('.move-text')
        const expand = text.getByTestId('text-expand')
        if ((await expand.count()) === 0) expect(await text.textContent()).toBe(t.moves[i].text)
        else {
          await expand.click()
          // The text, then the one space before the expander.
          const shown = await text.evaluate((el) => [...el.childNodes].filter((n) => n.nodeType === 3).map((n) => n.textContent).join(''))
          expect(shown).toBe(`${t.moves[i].text} `)
        }
      }
      // No element a payload tries to create exists anywhere in the app.
      const injected = (await page.evaluate(
        `document.querySelectorAll('#root img, #root iframe, #root object, #root embed, #root script, #root style, #root base, #root meta, #root link, #root video, #root math, #root details, #root x, #root a[href^="javascript"]').length`
      )) as number
      expect(injected, t.task).toBe(0)
    }
    await page.screenshot({ path: join(__dirname, '../../test-results/screenshots/hostile-review.png') })
    expect(await page.evaluate('window.__pwned')).toBeUndefined()
    expect(dialogs).toEqual([])
    expect(foreign).toEqual([])
  })

  it('keeps the other screens inert too (queue, calibrate, import history)', async () => {
    for (const hash of ['#/queue', '#/calibrate', '#/import', '#/audit']) {
      await page.goto(`${server.host.url}${hash}`)
      await page.locator('main h1').waitFor()
      await page.waitForTimeout(200)
    }
    expect(await page.evaluate('window.__pwned')).toBeUndefined()
    expect(dialogs).toEqual([])
    expect(foreign).toEqual([])
  })
})
