/**
 * The `import` suite's opt-in step (ARBITER_BENCH_BIG_UPLOAD=1): a trace file past V8's string
 * cap uploaded and imported through the Import screen in Chromium, over the web host on a fresh
 * database. The page must never hold the file: its JS heap is sampled over CDP all along and its
 * peak held to 64 MiB; the server (a child process, so its memory is its own) reports its RSS and
 * heap. Needs the renderer build (`npm run build`) and Chromium.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { createWriteStream, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { chromiumMissing, launchChromium } from '../test/e2e/browser'
import { DEFAULT_RENDERER_DIR, startConsoleServer } from '../src/main/console-server'
import type { Figure } from './figure'

/** Past V8's largest string (2^29 − 24 characters): a file the old whole-file `file.text()` could not read. */
const TARGET_BYTES = 600 * 1024 ** 2 + 16 * 1024 ** 2
const PAGE_HEAP_TARGET_MIB = 64
const SAMPLE_MS = 200
const SEATS = ['A1', 'A2', 'A3', 'A4', 'A5']
/** Debate text that makes each line a few kB: the file is big in bytes, not in tasks. */
const FILLER = 'The cited record, read in full, supports this reading of the question and not the others; '.repeat(30)

function line(i: number): string {
  const candidates = ['option A', 'option B', 'option C']
  const pick = (s: number) => candidates[(i * 7 + s * 3) % 3]
  const moves = [
    { id: 'm1', round: 0, seat: SEATS[i % 5], force: 'propose', answer: pick(0), text: `${i}: ${FILLER}` },
    { id: 'm2', round: 0, seat: SEATS[(i + 1) % 5], force: 'propose', answer: pick(1), text: FILLER },
    { id: 'm3', round: 1, seat: SEATS[(i + 2) % 5], force: 'challenge', target: 'm1', text: FILLER }
  ]
  return JSON.stringify({ task: `big-${String(i).padStart(7, '0')}`, question: `Big upload question ${i}?`, candidates, gold: pick(0), group: `G${i % 4}`, moves })
}

/** Writes valid arbiter.trace/1 lines until the file passes TARGET_BYTES; returns its tasks. */
async function writeBigTraces(path: string): Promise<number> {
  const out = createWriteStream(path)
  let bytes = 0
  let tasks = 0
  while (bytes < TARGET_BYTES) {
    const text = `${line(tasks++)}\n`
    bytes += Buffer.byteLength(text)
    if (!out.write(text)) await new Promise<void>((r) => out.once('drain', () => r()))
  }
  await new Promise<void>((r) => out.end(() => r()))
  return tasks
}

interface ServerSample {
  rss: number
  heapUsed: number
}

/** The web host in a child process: prints its login URL, then its memory every SAMPLE_MS. */
async function serve(dbLocation: string): Promise<void> {
  const server = await startConsoleServer({ dbLocation, demoIfMissing: false })
  process.stdout.write(`${JSON.stringify({ loginUrl: server.host.loginUrl, url: server.host.url })}\n`)
  setInterval(() => {
    const m = process.memoryUsage()
    process.stdout.write(`${JSON.stringify({ rss: m.rss, heapUsed: m.heapUsed })}\n`)
  }, SAMPLE_MS)
}

function startServerChild(dbLocation: string): Promise<{ child: ChildProcess; loginUrl: string; url: string; samples: ServerSample[] }> {
  const child = spawn(process.execPath, ['--import', 'tsx', __filename, 'serve', dbLocation], { cwd: join(__dirname, '..'), stdio: ['ignore', 'pipe', 'inherit'] })
  const samples: ServerSample[] = []
  return new Promise((resolve, reject) => {
    child.once('error', reject)
    child.once('exit', (code) => reject(new Error(`the bench server exited (${code}) before it listened`)))
    createInterface({ input: child.stdout! }).on('line', (text) => {
      const msg = JSON.parse(text) as { loginUrl?: string; url?: string } & Partial<ServerSample>
      if (msg.loginUrl !== undefined) resolve({ child, loginUrl: msg.loginUrl, url: msg.url!, samples })
      else samples.push(msg as ServerSample)
    })
  })
}

const MiB = 1024 ** 2

export async function bigUpload(): Promise<Figure[]> {
  const missing = chromiumMissing() ?? (existsSync(join(DEFAULT_RENDERER_DIR, 'index.html')) ? null : 'no renderer build: run `npm run build` first')
  if (missing !== null) throw Object.assign(new Error(`ARBITER_BENCH_BIG_UPLOAD: ${missing}`), { setup: true })
  const dir = mkdtempSync(join(tmpdir(), 'arbiter-bench-big-upload-'))
  let child: ChildProcess | null = null
  const browser = await launchChromium()
  try {
    const file = join(dir, 'big.trace.jsonl')
    const t0 = performance.now()
    const tasks = await writeBigTraces(file)
    const bytes = statSync(file).size
    console.error(`big upload: wrote ${(bytes / MiB).toFixed(0)} MiB (${tasks} tasks) in ${((performance.now() - t0) / 1000).toFixed(1)} s`)

    const server = await startServerChild(join(dir, 'arbiter.db'))
    child = server.child
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
    const cdp = await page.context().newCDPSession(page)
    await cdp.send('Performance.enable')
    let pageHeapPeak = 0
    let sampling = true
    const sampler = (async () => {
      while (sampling) {
        const { metrics } = await cdp.send('Performance.getMetrics')
        const used = metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? 0
        pageHeapPeak = Math.max(pageHeapPeak, used)
        await new Promise((r) => setTimeout(r, SAMPLE_MS))
      }
    })()

    await page.goto(server.loginUrl)
    await page.goto(`${server.url}#/import`)
    await page.getByTestId('import-file').setInputFiles(file)
    let slices = 0
    let uploadedAt = 0
    page.on('request', (r) => {
      const path = new URL(r.url()).pathname
      if (path === '/api/imports.upload') slices++
      if (path === '/api/imports.run') uploadedAt = performance.now()
    })
    const serverBefore = server.samples.length
    const started = performance.now()
    await page.getByRole('button', { name: /^Import big/ }).click()
    const summary = page.getByTestId('import-summary').or(page.getByRole('alert'))
    await summary.first().waitFor({ timeout: 60 * 60_000 })
    const done = performance.now()
    sampling = false
    await sampler
    const status = await page.getByTestId('import-summary').getAttribute('data-status').catch(() => null)
    if (status !== 'imported') throw new Error(`the big upload did not import: ${await summary.first().textContent()}`)
    const during = server.samples.slice(serverBefore)
    const rssPeak = Math.max(...during.map((s) => s.rss))
    const heapPeak = Math.max(...during.map((s) => s.heapUsed))
    const uploadS = (uploadedAt - started) / 1000
    const f = (name: string, value: number, unit: string, target: number | null, note?: string): Figure => ({ suite: 'import', name, value, unit, target, better: 'lower', reference: null, note })
    return [
      f(`big upload: ${(bytes / MiB).toFixed(0)} MiB (${tasks} tasks) uploaded and imported through the Import screen`, (done - started) / 1000, 's', null, `upload ${uploadS.toFixed(1)} s in ${slices} slices, import ${((done - uploadedAt) / 1000).toFixed(1)} s`),
      f('big upload: page JS heap peak (CDP JSHeapUsedSize)', pageHeapPeak / MiB, 'MiB', PAGE_HEAP_TARGET_MIB),
      f('big upload: server RSS peak (import worker included)', rssPeak / MiB, 'MiB', null),
      f('big upload: server main heap peak', heapPeak / MiB, 'MiB', null)
    ]
  } finally {
    await browser.close()
    // Our own child, by its pid: the server we started above.
    if (child !== null && child.exitCode === null) child.kill('SIGTERM')
    rmSync(dir, { recursive: true, force: true })
  }
}

if (require.main === module && process.argv[2] === 'serve') {
  serve(process.argv[3]).catch((e: unknown) => {
    console.error(e)
    process.exitCode = 1
  })
}
