#!/usr/bin/env node
// Compiles better-sqlite3 for the Electron version in node_modules and writes the binary to
// native/electron/better_sqlite3.node, which the desktop shell passes as better-sqlite3's
// `nativeBinding`. The Node build in node_modules stays untouched, so `npm test`, the CLI and
// `serve` keep working. Needs internet (Electron's headers); CI never runs it.
import { spawnSync } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

if (process.env.CI) {
  console.error('build-native-electron: not run in CI (it downloads Electron headers).')
  process.exit(1)
}
const root = new URL('..', import.meta.url).pathname
const electronVersion = JSON.parse(readFileSync(join(root, 'node_modules/electron/package.json'), 'utf8')).version
const work = mkdtempSync(join(tmpdir(), 'arbiter-native-'))
const copy = join(work, 'better-sqlite3')
cpSync(join(root, 'node_modules/better-sqlite3'), copy, { recursive: true })
rmSync(join(copy, 'build'), { recursive: true, force: true })

// nodedir would point node-gyp at Node's headers and silently build the wrong ABI.
const env = { ...process.env }
for (const k of Object.keys(env)) if (k.toLowerCase() === 'npm_config_nodedir') delete env[k]
console.log(`Building better-sqlite3 for Electron ${electronVersion} in ${copy} …`)
const r = spawnSync(
  'npx',
  ['--yes', 'node-gyp', 'rebuild', '--release', '--runtime=electron', `--target=${electronVersion}`, '--dist-url=https://electronjs.org/headers'],
  { cwd: copy, stdio: 'inherit', env }
)
if (r.status !== 0) {
  console.error('build-native-electron: node-gyp failed (is the machine online?). node_modules was not touched.')
  process.exit(r.status ?? 1)
}
mkdirSync(join(root, 'native/electron'), { recursive: true })
cpSync(join(copy, 'build/Release/better_sqlite3.node'), join(root, 'native/electron/better_sqlite3.node'))
rmSync(work, { recursive: true, force: true })
console.log('Wrote native/electron/better_sqlite3.node')

