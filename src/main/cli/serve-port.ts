/**
 * `serve`'s port when `--port` is not given: the one it listened on last time on this machine (a
 * state file in the data folder), else DEFAULT_SERVE_PORT — so a restart comes back at the address
 * the open consoles know. A port another program holds is not waited for: the server listens on a
 * free one instead, says so, and remembers it for the next start.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { defaultDataDir, makeDataFolder } from '../paths'

export const DEFAULT_SERVE_PORT = 4780
export const SERVE_PORT_FILE = 'serve-port'

function stateFile(env: NodeJS.ProcessEnv): string {
  return join(defaultDataDir(env), SERVE_PORT_FILE)
}

/** The port to try first: the last one `serve` listened on here, or the default. */
export function preferredServePort(env: NodeJS.ProcessEnv = process.env): number {
  try {
    const n = Number(readFileSync(stateFile(env), 'utf8').trim())
    return Number.isInteger(n) && n > 0 && n <= 65535 ? n : DEFAULT_SERVE_PORT
  } catch {
    return DEFAULT_SERVE_PORT
  }
}

/** Remembers the port for the next start; a state file that cannot be written only costs that. */
export function rememberServePort(port: number, env: NodeJS.ProcessEnv = process.env): void {
  try {
    makeDataFolder(defaultDataDir(env))
    writeFileSync(stateFile(env), `${port}\n`, { mode: 0o600 })
  } catch {
    // Without it, the next start tries the default port again.
  }
}
