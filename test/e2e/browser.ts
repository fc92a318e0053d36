import { existsSync } from 'node:fs'
import { chromium, type Browser } from 'playwright-core'
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
