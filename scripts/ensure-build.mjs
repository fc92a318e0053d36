#!/usr/bin/env node
// Builds out/ (electron-vite) when it is missing or older than any source or build config,
// so `npm test` and `npm run serve` never run against a stale renderer.
import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'

const root = new URL('..', import.meta.url).pathname
const outputs = ['out/renderer/index.html', 'out/main/index.js', 'out/main/jobs-worker.js', 'out/preload/index.js'].map((p) => join(root, p))
const inputs = ['src', 'electron.vite.config.ts', 'package.json', 'package-lock.json', 'tsconfig.base.json']

function newest(path) {
  const full = join(root, path)
  if (!existsSync(full)) return 0
  const st = statSync(full)
  if (!st.isDirectory()) return st.mtimeMs
  let max = st.mtimeMs
  for (const entry of readdirSync(full)) max = Math.max(max, newest(join(path, entry)))
  return max
}

export function buildIsFresh() {
  if (!outputs.every((p) => existsSync(p))) return false
  const built = Math.min(...outputs.map((p) => statSync(p).mtimeMs))
  return inputs.every((p) => newest(p) <= built)
}

if (process.argv[1] && new URL(import.meta.url).pathname === process.argv[1]) {
  if (buildIsFresh()) {
    console.log('build: out/ is up to date')
  } else {
    const started = Date.now()
    execFileSync(join(root, 'node_modules/.bin/electron-vite'), ['build'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] })
    console.log(`build: electron-vite build done in ${((Date.now() - started) / 1000).toFixed(1)} s`)
  }
}
