#!/usr/bin/env node
// `npm run package`: installers for this platform, on a machine with internet. Builds the
// Electron-ABI SQLite binding and out/ first; electron-builder downloads Electron itself.
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'

if (process.env.CI) {
  console.error('package: not run in CI (it downloads Electron).')
  process.exit(1)
}
const root = new URL('..', import.meta.url).pathname
const run = (cmd, args) => {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' })
  if (r.status !== 0) process.exit(r.status ?? 1)
}
if (!existsSync(join(root, 'native/electron/better_sqlite3.node'))) run(process.execPath, [join(root, 'scripts/build-native-electron.mjs')])
run(process.execPath, [join(root, 'scripts/ensure-build.mjs')])
run('npx', ['--yes', 'electron-builder@26.17.0', '--config', 'electron-builder.yml', ...process.argv.slice(2)])
