import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'

const root = join(__dirname, '../..')
const ALLOWED = new Set(['src/main/index.ts', 'src/main/host/electron.ts', 'src/preload/index.ts'])

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name)
    return statSync(full).isDirectory() ? files(full) : /\.(ts|tsx|mts|cts|js|mjs)$/.test(name) ? [full] : []
  })
}

// Matches real import sites only: `from 'electron'`, `import 'electron'`, `require('electron')`,
// `import('electron')` — at the start of a statement, so a comment mentioning them does not count.
const ELECTRON_IMPORT = /^\s*(?:import\s[^;]*?from\s*|import\s*|export\s[^;]*?from\s*|.*\brequire\s*\(\s*|.*\bimport\s*\(\s*)['"]electron['"]/m

describe('process boundaries', () => {
  it('imports electron only in the three desktop-shell files', () => {
    const importers = files(join(root, 'src'))
      .filter((f) => ELECTRON_IMPORT.test(readFileSync(f, 'utf8')))
      .map((f) => relative(root, f))
      .sort()
    expect(importers).toEqual([...ALLOWED].sort())
  })

  it('keeps src/renderer away from src/main and node built-ins', () => {
    const offenders = files(join(root, 'src/renderer')).filter((f) => /from\s+['"](?:\.\.\/)+main\/|from\s+['"]node:/.test(readFileSync(f, 'utf8')))
    expect(offenders.map((f) => relative(root, f))).toEqual([])
  })

  it('keeps the engine free of I/O, electron and SQL', () => {
    const offenders = files(join(root, 'src/main/engine'))
      .filter((f) => !f.endsWith('hash.ts'))
      .filter((f) => /from\s+['"](?:electron|better-sqlite3|node:fs|node:http|node:child_process)['"]/.test(readFileSync(f, 'utf8')))
    expect(offenders.map((f) => relative(root, f))).toEqual([])
  })
})
