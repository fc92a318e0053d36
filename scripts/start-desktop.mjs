#!/usr/bin/env node
// `npm start`: the desktop app. Builds better-sqlite3 for Electron's ABI once (into native/,
// beside the Node build npm made, so tests and the CLI keep working), builds out/, launches.
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'

const root = new URL('..', import.meta.url).pathname
const run = (cmd, args, env = process.env) => {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env })
  if (r.status !== 0) process.exit(r.status ?? 1)
}

if (!existsSync(join(root, 'native/electron/better_sqlite3.node'))) run(process.execPath, [join(root, 'scripts/build-native-electron.mjs')])
run(process.execPath, [join(root, 'scripts/ensure-build.mjs')])
run(join(root, 'node_modules/.bin/electron'), ['.', ...process.argv.slice(2)])
