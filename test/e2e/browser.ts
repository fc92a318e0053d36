import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium, type Browser, type Page } from 'playwright-core'
import { startConsoleServer, type ConsoleServer } from '../../src/main/console-server'
import { createDemoDatabase } from '../../src/main/service/demo'
import type { Missing } from '../helpers/prerequisites'

const WELL_KNOWN = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable', '/snap/bin/chromium']

const candidatesOf = (env: NodeJS.ProcessEnv): string[] => (env.CHROMIUM_PATH ? [env.CHROMIUM_PATH] : WELL_KNOWN)

/** Why the browser suites cannot run here, or null when a Chromium is found. */
export function chromiumMissing(env: NodeJS.ProcessEnv = process.env): string | null {
  const candidates = candidatesOf(env)
  return candidates.some((p) => existsSync(p)) ? null : `no Chromium at ${candidates.join(', ')} (install chromium or set CHROMIUM_PATH)`
}

/** Why this machine cannot run the browser suites, or null: they are wrapped in `describeWith(CHROMIUM, …)`. */
export const CHROMIUM: Missing = chromiumMissing()

/** Chromium from CHROMIUM_PATH or a well-known path; never downloads a browser. */
export function findChromium(env: NodeJS.ProcessEnv = process.env): string {
  const candidates = candidatesOf(env)
  const found = candidates.find((p) => existsSync(p))
  if (!found) {
    throw new Error(
      `No Chromium found (looked at ${candidates.join(', ')}). Install Debian's chromium (apt-get install -y chromium) or set CHROMIUM_PATH to a Chromium binary.`
    )
  }
  return found
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: findChromium(),
    headless: true,
    timeout: 30_000,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync']
  })
}

/** Where the e2e tests leave their screenshots, and the widths and colour schemes each screen is shot at. */
export const SHOTS = join(__dirname, '../../test-results/screenshots')
export const WIDTHS = [1440, 1024] as const
export const SCHEMES = ['light', 'dark'] as const

export interface OpenConsole {
  server: ConsoleServer
  browser: Browser
  page: Page
  /** Uncaught errors of the page, for a test to assert there were none. */
  pageErrors: string[]
  close(): Promise<void>
}

/**
 * The reading time before a label counts (Settings → `dwellMs`) on `server`'s database, before a page
 * loads. The suites set 0 so that keys count as soon as a task is painted, as they did before the
 * minimum existed; a test of the minimum sets its own.
 */
export async function setDwell(server: ConsoleServer, dwellMs: number): Promise<void> {
  await server.service.handlers['settings.update']({ patch: { dwellMs } }, server.service.context())
}

/**
 * A console server on `dbLocation` and a 1440 × 900 Chromium page signed in to it through its login
 * URL; `dwellMs` (default 0: no reading time) is set before the page loads.
 */
export async function openConsole(dbLocation: string, opts: { dwellMs?: number } = {}): Promise<OpenConsole> {
  const server = await startConsoleServer({ dbLocation })
  await setDwell(server, opts.dwellMs ?? 0)
  const browser = await launchChromium()
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } })
  const pageErrors: string[] = []
  page.on('pageerror', (e) => pageErrors.push(String(e)))
  await page.goto(server.host.loginUrl)
  mkdirSync(SHOTS, { recursive: true })
  return {
    server, browser, page, pageErrors,
    async close() {
      await browser.close()
      await server.close()
    }
  }
}

/**
 * The demo database in a fresh folder named for the suite, opened as `openConsole` does, with the
 * background refit off: a refit that a label starts would move the queue under the test. close()
 * also removes the folder.
 */
export async function openDemoConsole(suite: string, opts: { dwellMs?: number } = {}): Promise<OpenConsole> {
  const dir = mkdtempSync(join(tmpdir(), `arbiter-e2e-${suite}-`))
  const dbLocation = join(dir, 'arbiter.db')
  await createDemoDatabase(dbLocation)
  const open = await openConsole(dbLocation, opts)
  await open.server.service.handlers['engine.updateSettings']({ patch: { autoRefit: false } }, open.server.service.context())
  return {
    ...open,
    async close() {
      await open.close()
      rmSync(dir, { recursive: true, force: true })
    }
  }
}
