/**
 * The browser console uploads a file of a few MiB slice by slice (the slice size made small so it
 * takes several): each slice is one POST to /api/imports.upload whose body is the slice's raw
 * bytes, never the file as text, and the import reads the whole file.
 */
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page, Request } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startConsoleServer, type ConsoleServer } from '../../src/main/console-server'
import { cleanCouncil, toJsonl } from '../../src/main/sim'
import { UPLOAD_HEADER, UPLOAD_SLICE_BYTES_KEY } from '../../src/shared/contract/upload'
import { CHROMIUM, launchChromium } from './browser'
import { describeWith } from '../helpers/prerequisites'

const TASKS = 4000
const SLICE = 512 * 1024

let dir: string
let file: string
let server: ConsoleServer
let browser: Browser
let page: Page
const pageErrors: string[] = []

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'arbiter-e2e-upload-'))
  file = join(dir, 'sliced.trace.jsonl')
  writeFileSync(file, [...cleanCouncil({ tasks: TASKS, seed: 11 })].map((t) => `${toJsonl(t)}\n`).join(''))
  server = await startConsoleServer({ dbLocation: join(dir, 'arbiter.db'), demoIfMissing: false })
  browser = await launchChromium()
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
  page.on('pageerror', (e) => pageErrors.push(String(e)))
  await page.addInitScript(`window.sessionStorage.setItem(${JSON.stringify(UPLOAD_SLICE_BYTES_KEY)}, '${SLICE}')`)
  await page.goto(server.host.loginUrl)
})

afterAll(async () => {
  await browser?.close()
  await server?.close()
  rmSync(dir, { recursive: true, force: true })
})

describeWith(CHROMIUM, 'the Import screen uploads in binary slices (Chromium, web host)', () => {
  it('sends a file of a few MiB as several octet-stream slices, in order, and imports all of it', async () => {
    const size = statSync(file).size
    expect(size).toBeGreaterThan(3 * 1024 * 1024)
    const slices: { contentType: string | undefined; args: { uploadId: string | null; offset: number; fileName: string } }[] = []
    page.on('request', (r: Request) => {
      if (r.method() === 'POST' && new URL(r.url()).pathname === '/api/imports.upload') {
        const h = r.headers()
        slices.push({ contentType: h['content-type'], args: JSON.parse(h[UPLOAD_HEADER.toLowerCase()] ?? 'null') })
      }
    })
    await page.goto(`${server.host.url}#/import`)
    await page.getByTestId('import-file').setInputFiles(file)
    await page.getByRole('button', { name: /^Import sliced/ }).click()
    const summary = page.getByTestId('import-summary')
    await summary.waitFor({ timeout: 60_000 })
    expect(await summary.getAttribute('data-status')).toBe('imported')
    expect(await summary.textContent()).toContain(`${TASKS} tasks written`)
    expect((await server.service.handlers['app.counts']({}, server.service.context())).tasks).toBe(TASKS)

    expect(slices).toHaveLength(Math.ceil(size / SLICE))
    expect(slices.every((s) => s.contentType === 'application/octet-stream')).toBe(true)
    expect(slices.map((s) => s.args.offset)).toEqual(slices.map((_, i) => i * SLICE))
    expect(slices[0].args.uploadId).toBeNull()
    expect(new Set(slices.slice(1).map((s) => s.args.uploadId)).size).toBe(1)
    expect(slices.every((s) => s.args.fileName === 'sliced.trace.jsonl')).toBe(true)
    expect(pageErrors).toEqual([])
  })
})
