import { existsSync } from 'node:fs'
import { chromium, type Browser } from 'playwright-core'

const WELL_KNOWN = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable', '/snap/bin/chromium']

/** Chromium from CHROMIUM_PATH or a well-known path; never downloads a browser. */
export function findChromium(env: NodeJS.ProcessEnv = process.env): string {
  const candidates = env.CHROMIUM_PATH ? [env.CHROMIUM_PATH] : WELL_KNOWN
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
