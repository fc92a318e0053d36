import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { findCircles, importGraph, type ImportGraph } from '../helpers/import-cycles'

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

describe('import circles', () => {
  it('src holds none, `import type` counted', () => {
    const graph = importGraph(root, 'src', { '@shared': join(root, 'src/shared') })
    expect(graph.size).toBeGreaterThan(300)
    expect(findCircles(graph)).toEqual([])
  })

  it('the checker finds a circle in a synthetic graph, and only the circle', () => {
    const graph: ImportGraph = new Map([
      ['a', ['b']],
      ['b', ['c', 'x']],
      ['c', ['a']],
      ['d', ['d']],
      ['x', []],
      ['y', ['x', 'package']]
    ])
    expect(findCircles(graph)).toEqual([['a', 'b', 'c'], ['d']])
    graph.set('c', [])
    graph.set('d', [])
    expect(findCircles(graph)).toEqual([])
  })

  it('the graph sees a circle planted on disk through type imports and re-exports', () => {
    const dir = mkdtempSync(join(tmpdir(), 'arbiter-circles-'))
    try {
      const write = (path: string, text: string) => {
        mkdirSync(dirname(join(dir, path)), { recursive: true })
        writeFileSync(join(dir, path), text)
      }
      write('src/contract/index.ts', "export type * from './types'\n")
      write('src/contract/types.ts', "import type { Row } from '../ops/row'\nexport type T = Row\n")
      write('src/ops/row.ts', "import type { T } from '../contract'\nexport type Row = { t: T }\n// import '../far'\nconst s = \"import '../far'\"\n")
      write('src/far.ts', "export const far = 1\n")
      expect(findCircles(importGraph(dir, 'src'))).toEqual([['src/contract/index.ts', 'src/contract/types.ts', 'src/ops/row.ts']])
      write('src/ops/row.ts', 'export type Row = { t: string }\n')
      expect(findCircles(importGraph(dir, 'src'))).toEqual([])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('database drivers', () => {
  it('only the two backend folders of the store import better-sqlite3, pg or pg-copy-streams', () => {
    const DRIVER = /^\s*(?:import|export)\s[^;]*?from\s*['"](?:better-sqlite3|pg|pg-copy-streams)['"]/m
    const importers = files(join(root, 'src'))
      .filter((f) => DRIVER.test(readFileSync(f, 'utf8')))
      .map((f) => relative(root, f))
    expect(importers.length).toBeGreaterThan(0)
    expect(importers.filter((f) => !/^src\/main\/store\/(sqlite|postgres)\//.test(f))).toEqual([])
  })
})
