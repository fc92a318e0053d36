import { mkdirSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'

/**
 * Where Arbiter keeps its data when no `--db` is given. The same folder Electron's
 * `userData` would be for an app named "Arbiter", so the desktop app, `serve` and the CLI
 * open the same database. `ARBITER_HOME` overrides it.
 */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (env.ARBITER_HOME) return env.ARBITER_HOME
  const home = homedir()
  if (platform === 'win32') return join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), 'Arbiter')
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'Arbiter')
  return join(env.XDG_CONFIG_HOME ?? join(home, '.config'), 'Arbiter')
}

export function defaultDbLocation(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  return join(defaultDataDir(env, platform), 'arbiter.db')
}

/**
 * Creates the folder a database goes in (and any missing parent) owner-only: it holds every label,
 * blind ones included. A folder that exists already — one the user made or named — is left as it is.
 */
export function makeDataFolder(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 })
}
